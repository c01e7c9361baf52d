package dev.gauntlet.core.report;

import dev.gauntlet.core.result.DisruptionRecord;

/**
 * Where a disruption falls on the run's timeline, in seconds from the start, as every chart and table of a report
 * draws it: from its actual start to its actual end when it ran; a disruption that never started (or whose end was
 * not recorded) falls back to its plan, and one without any end is an instant. {@code recovery} and
 * {@code recoverySeconds} are the record's verdict ({@value DisruptionRecord#RECOVERED},
 * {@value DisruptionRecord#NOT_RECOVERED}, {@value DisruptionRecord#NOT_JUDGED} with {@code recoveryNote} saying why,
 * or null when the run had no recovery rule).
 */
record DisruptionSpan(String name, double start, double end, boolean happened, String recovery,
                      Double recoverySeconds, String recoveryNote) {

    static DisruptionSpan of(DisruptionRecord r) {
        boolean happened = r.startSeconds() != null;
        double start = happened ? r.startSeconds() : r.plannedStartSeconds();
        Double end = happened && r.endSeconds() != null ? r.endSeconds() : r.plannedEndSeconds();
        return new DisruptionSpan(r.name(), start, end == null ? start : Math.max(start, end), happened,
                r.recovery(), r.recoverySeconds(), r.recoveryNote());
    }

    /** Whether the workload was back to its baseline after the disruption, with a time to say when. */
    boolean recovered() {
        return DisruptionRecord.RECOVERED.equals(recovery) && recoverySeconds != null;
    }

    /** When the workload was back: {@code recoverySeconds} after the end; null unless {@link #recovered()}. */
    Double recoveredAt() {
        return recovered() ? end + recoverySeconds : null;
    }

    /** Where it falls, as the dashboard lists it: {@code 640.3s-650.3s}, or {@code at 540.0s} for an instant. */
    String when() {
        String from = Figures.seconds(start);
        String to = Figures.seconds(end);
        return from.equals(to) ? "at " + from : from + "-" + to;
    }

    /** Whether the next disruption or the phase's end came before the rule could judge it (or cut its hold short). */
    boolean notJudged() {
        return DisruptionRecord.NOT_JUDGED.equals(recovery);
    }

    /**
     * The verdict in words: {@code recovered in 12.0s}, {@code not recovered}, {@code not judged: the next
     * disruption, ... came 5.0s after its end ...} or {@code not judged: back at 82.0s, held 23.0s of 30.0s before
     * ...}, or a dash without a verdict.
     */
    String recoveryText() {
        if (recovered()) {
            return "recovered in " + Figures.seconds(recoverySeconds);
        }
        if (notJudged() && recoveryNote != null) {
            return recovery + ": " + recoveryNote;
        }
        return recovery == null ? "—" : recovery;
    }
}
