package dev.gauntlet.core.result;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether an open-loop run kept its schedule. A run asking more of a system than it can do issues fewer operations
 * than scheduled; the ones it could not issue are counted as unissued, and its measured latency understates what
 * a client at that rate would have seen. Computed from the result alone, so summaries, reports and comparisons
 * agree.
 *
 * @param targetOpsPerSecond   the {@code --rate} asked for
 * @param achievedOpsPerSecond operations issued (committed or failed) per measured second
 * @param unissued             operations due before the end that never ran to completion
 */
public record Saturation(String role, double targetOpsPerSecond, double achievedOpsPerSecond, long unissued) {

    /** Below this share of the asked rate a run is saturated. */
    public static final double KEPT_SHARE = 0.95;

    /**
     * The open-loop figures of a run: of its worst-kept open-loop role (by share of the rate achieved); empty for a
     * closed-loop run. Results without roles (written before roles existed) are one role, read from the parameters.
     */
    public static Optional<Saturation> of(RunResult run) {
        if (!run.roles().isEmpty()) {
            return run.roles().stream().filter(RoleResult::openLoop)
                    .map(r -> new Saturation(r.name(), r.rate(), r.issuedPerSecond(), r.unissued()))
                    .min(java.util.Comparator.comparingDouble(s -> s.achievedOpsPerSecond() / s.targetOpsPerSecond()));
        }
        if (!"open".equals(run.parameters().get("loop")) || !(run.parameters().get("rate") instanceof Number rate)
                || rate.doubleValue() <= 0) {
            return Optional.empty();
        }
        long issued = run.operations().stream().mapToLong(o -> o.count() + o.errors()).sum();
        double achieved = run.measuredSeconds() > 0 ? issued / run.measuredSeconds() : 0;
        return Optional.of(new Saturation("clients", rate.doubleValue(), achieved, run.totalUnissued()));
    }

    public boolean saturated() {
        return achievedOpsPerSecond < KEPT_SHARE * targetOpsPerSecond;
    }

    /** The one-line warning a saturated run prints. */
    public String warning() {
        return String.format(Locale.ROOT, "saturated: achieved %,.1f of %,.1f ops/s; latency understates the backlog"
                + " (%,d operations due were never issued%s)", achievedOpsPerSecond, targetOpsPerSecond, unissued,
                "clients".equals(role) ? "" : "; role " + role);
    }
}
