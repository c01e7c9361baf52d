package dev.gauntlet.core.run;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * A named stretch of a run's timeline, planned before it starts: {@code warmup}, {@code measure}, or any the plan
 * names ({@code baseline}, {@code index-build}, {@code restart}, {@code recovery}, {@code drain}...). Intervals close
 * exactly at each boundary, each phase gets its own totals in the result, and the run's totals cover the measured
 * phases. A phase with a condition ({@link #until}) ends when it holds, and the phases after it move up with it.
 *
 * @param name     the phase's name in results, reports and charts
 * @param length   how long it lasts; null for the last phase of a run bounded by iterations
 * @param measured whether its operations count in the run's totals (a warm-up's do not)
 * @param roles    the roles whose clients run in it; empty: every role. A role left out stops issuing when the phase
 *                 begins and does not come back (bench-queue's drain: the readers alone, after the writers stop)
 * @param until    ends the phase before its length, the moment it holds (the length is then a limit); null: none
 */
public record PhasePlan(String name, Duration length, boolean measured, Set<String> roles, Condition until) {

    public PhasePlan(String name, Duration length, boolean measured) {
        this(name, length, measured, Set.of(), null);
    }

    public PhasePlan {
        roles = roles == null ? Set.of() : Set.copyOf(roles);
        if (until != null && length == null) {
            throw new IllegalArgumentException("phase " + name + " ends on a condition, so it needs a length as its limit");
        }
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

    /** This phase, ended as soon as {@code condition} holds; its length becomes the limit. */
    public PhasePlan until(Condition condition) {
        return new PhasePlan(name, length, measured, roles, condition);
    }

    /** This phase with only {@code names}' clients running. */
    public PhasePlan onlyRoles(String... names) {
        return new PhasePlan(name, length, measured, Set.copyOf(List.of(names)), until);
    }

    /** Whether {@code role}'s clients run in this phase. */
    public boolean runs(String role) {
        return roles.isEmpty() || roles.contains(role);
    }
}
