package dev.gauntlet.core.report;

import dev.gauntlet.core.result.LatencySummary;
import java.util.List;
import java.util.Locale;

/**
 * How numbers are written in reports. One place, one locale (ROOT), so a report reads the same on every
 * machine and golden files stay stable; fixed decimals so columns line up.
 */
final class Figures {

    private Figures() {
    }

    /** Milliseconds with microsecond resolution: sub-millisecond stores (RocksDB) still show a figure. */
    static String ms(double millis) {
        return String.format(Locale.ROOT, "%.3f", millis);
    }

    /** A rate: always a real division, two decimals so a slow workload shows 0.02, not 0. */
    static String rate(double perSecond) {
        return String.format(Locale.ROOT, "%,.2f", perSecond);
    }

    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A workload metric such as tpmC or efficiencyPercent. */
    static String metric(double value) {
        return String.format(Locale.ROOT, "%,.2f", value);
    }

    /** Seconds on the run's timeline, like {@code 60.0s}. */
    static String seconds(double s) {
        return String.format(Locale.ROOT, "%.1fs", s);
    }

    /** Seconds on the run's timeline, or a dash when there is no such moment (a disruption that never started). */
    static String secondsOrDash(Double s) {
        return s == null ? "—" : seconds(s);
    }

    /** A signed relative change, like {@code +12.3%}. */
    static String signedPercent(double percent) {
        return String.format(Locale.ROOT, "%+.1f%%", percent);
    }

    /** A magnitude, like {@code 12.3%}: used in sentences that already say "higher" or "lower". */
    static String percent(double percent) {
        return String.format(Locale.ROOT, "%.1f%%", Math.abs(percent));
    }

    /** A threshold as the user typed it: {@code 5%}, {@code 2.5%}. */
    static String threshold(double percent) {
        return (percent == Math.rint(percent) ? String.format(Locale.ROOT, "%.0f", percent)
                : String.format(Locale.ROOT, "%s", percent)) + "%";
    }

    static String mebibytes(long bytes) {
        return String.format(Locale.ROOT, "%,d MiB", bytes / (1024 * 1024));
    }

    /** The six latency cells every latency table shows, in the order mean, p50, p90, p95, p99, max. */
    static List<String> latencyCells(LatencySummary l) {
        return List.of(ms(l.mean()), ms(l.p50()), ms(l.p90()), ms(l.p95()), ms(l.p99()), ms(l.max()));
    }

    /** Events per second over a span; falls back to a recorded rate when the span is unknown. */
    static double perSecond(long count, double seconds, double recordedRate) {
        return seconds > 0 ? count / seconds : recordedRate;
    }

    static String orDash(Object value) {
        if (value == null) {
            return "—";
        }
        String s = String.valueOf(value);
        return s.isBlank() ? "—" : s;
    }
}
