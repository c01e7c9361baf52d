package dev.gauntlet.core.run;

import java.time.Duration;

/**
 * A named stretch of a run's timeline, fixed before it starts: {@code warmup}, {@code measure}, or any the plan
 * names ({@code baseline}, {@code index-build}, {@code restart}, {@code recovery}...). Intervals close exactly at
 * each boundary, each phase gets its own totals in the result, and the run's totals cover the measured phases.
 *
 * @param name     the phase's name in results, reports and charts
 * @param length   how long it lasts; null for the last phase of a run bounded by iterations
 * @param measured whether its operations count in the run's totals (a warm-up's do not)
 */
public record PhasePlan(String name, Duration length, boolean measured) {

    public PhasePlan {
        if (name == null || !name.matches("[A-Za-z][A-Za-z0-9_-]*")) {
            throw new IllegalArgumentException("phase name '" + name + "' must be a word (letters, digits, - or _)");
        }
        if (length != null && (length.isNegative() || length.isZero())) {
            throw new IllegalArgumentException("phase " + name + " must last a positive time");
        }
    }

    public static PhasePlan measured(String name, Duration length) {
        return new PhasePlan(name, length, true);
    }
}
