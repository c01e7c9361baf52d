package dev.gauntlet.core.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Everything about how a run is paced, fixed before it starts. Build one with {@link #builder()}; single-role
 * workloads may use {@link #closedLoop} and the {@code with...} copies.
 *
 * @param roles        the kinds of clients, each with its count and pacing (at least one)
 * @param workers      threads that execute operations; waiting clients hold none
 * @param threads      what those threads are: OS threads or virtual ones
 * @param duration     measured time after warm-up; null when the run is bounded by {@code iterations}
 * @param iterations   operations per client (warm-up included); 0 when bounded by {@code duration}
 * @param warmup       time at the start whose operations are excluded from results
 * @param prime        time before everything else (warm-up and named phases) when clients run unmeasured so the driver
 *                     is warm: a phase {@value dev.gauntlet.core.result.Phase#PRIME}; zero for none
 * @param primeUntil   ends the priming before {@code prime} (then a limit) when it holds, e.g. {@link CompilerSettled};
 *                     null: the priming lasts {@code prime}
 * @param ramp         clients start evenly spread over this time
 * @param reportEvery  progress and interval-log period
 * @param maxAttempts  attempts per operation on retryable failures (1 = no retry)
 * @param seed         seed for the clients' random generators
 * @param phases       the timeline, when the plan names its phases; empty: a warm-up (if any) and one measured phase
 *                     of {@code duration} (or until the iterations are done)
 * @param disruptions  what happens to the system under test, and when
 */
public record RunPlan(List<Role> roles, int workers, ThreadKind threads, Duration duration, long iterations, Duration warmup,
                      Duration prime, Condition primeUntil, Duration ramp, Duration reportEvery, int maxAttempts, long seed,
                      List<PhasePlan> phases, List<DisruptionPlan> disruptions) {

    /** The most worker threads a plan gets by default: clients beyond this take turns. */
    public static final int DEFAULT_MAX_WORKERS = 512;

    public RunPlan {
        require(roles != null && !roles.isEmpty(), "a run needs at least one role");
        roles = List.copyOf(roles);
        Set<String> names = new HashSet<>();
        for (Role r : roles) {
            require(r.after() == null || names.contains(r.after()),
                    r.name() + " starts after " + r.after() + ", which must be a role listed before it");
            require(names.add(r.name()), "two roles are called " + r.name());
        }
        require(workers >= 1, "workers must be at least 1 (got " + workers + ")");
        require(threads != null, "say what the workers are (ThreadKind)");
        require(duration == null || !duration.isNegative() && !duration.isZero(), "duration must be positive");
        require(iterations >= 0, "iterations must not be negative");
        require(duration != null || iterations > 0, "give a duration or an iteration count");
        require(!warmup.isNegative(), "warm-up must not be negative");
        require(prime != null && !prime.isNegative(), "priming must not be negative");
        require(!ramp.isNegative(), "ramp must not be negative");
        require(!reportEvery.isNegative() && !reportEvery.isZero(), "report interval must be positive");
        require(maxAttempts >= 1, "max attempts must be at least 1");
        phases = phases == null ? List.of() : List.copyOf(phases);
        disruptions = disruptions == null ? List.of() : List.copyOf(disruptions);
        Set<String> phaseNames = new HashSet<>();
        for (int i = 0; i < phases.size(); i++) {
            PhasePlan ph = phases.get(i);
            require(phaseNames.add(ph.name()), "two phases are called " + ph.name());
            require(ph.length() != null || i == phases.size() - 1 && iterations > 0,
                    "phase " + ph.name() + " needs a length (only the last phase of an iteration-bound run may have none)");
        }
        require(phases.isEmpty() || phases.stream().anyMatch(PhasePlan::measured), "no phase is measured");
    }

    /**
     * The phases the run goes through, in order: the priming (when there is one), then the named phases, or a warm-up
     * (when there is one, not measured) and a measured phase called {@code measure}.
     */
    public List<PhasePlan> timeline() {
        if (prime.isZero()) {
            return schedule();
        }
        PhasePlan priming = new PhasePlan(dev.gauntlet.core.result.Phase.PRIME, prime, false);
        List<PhasePlan> t = new ArrayList<>(List.of(primeUntil == null ? priming : priming.until(primeUntil)));
        t.addAll(schedule());
        return t;
    }

    /**
     * The run's own phases, without the priming: the named ones, or a warm-up (when there is one, not measured) and a
     * measured phase called {@code measure}. What a workload extends when it adds a phase of its own.
     */
    public List<PhasePlan> schedule() {
        if (!phases.isEmpty()) {
            return phases;
        }
        List<PhasePlan> t = new ArrayList<>();
        if (!warmup.isZero()) {
            t.add(new PhasePlan(dev.gauntlet.core.result.Phase.WARMUP, warmup, false));
        }
        t.add(new PhasePlan(dev.gauntlet.core.result.Phase.MEASURE, duration, true));
        return t;
    }

    /** How long the run lasts by the clock, warm-up and phases included; zero when it runs a number of iterations. */
    public Duration length() {
        return timeline().stream().map(PhasePlan::length).filter(java.util.Objects::nonNull)
                .reduce(Duration.ZERO, Duration::plus);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** All clients of all roles. */
    public int clients() {
        return roles.stream().mapToInt(Role::clients).sum();
    }

    /** True when any role runs open loop. */
    public boolean openLoop() {
        return roles.stream().anyMatch(Role::openLoop);
    }

    /** The rate of a single-role plan (0 = closed loop); the sum of the open-loop roles' rates otherwise. */
    public double rate() {
        return roles.stream().mapToDouble(Role::rate).sum();
    }

    /** A plan with sensible defaults: one closed-loop role, no warm-up or ramp, 10 s reports, 10 attempts. */
    public static RunPlan closedLoop(int clients, Duration duration) {
        return builder().role(Role.closedLoop(Role.CLIENTS, clients)).duration(duration).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this plan. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.roles.addAll(roles);
        b.workers = workers;
        b.threads = threads;
        b.duration = duration;
        b.iterations = iterations;
        b.warmup = warmup;
        b.prime = prime;
        b.primeUntil = primeUntil;
        b.ramp = ramp;
        b.reportEvery = reportEvery;
        b.maxAttempts = maxAttempts;
        b.seed = seed;
        b.phases.addAll(phases);
        b.disruptions.addAll(disruptions);
        return b;
    }

    public RunPlan withWarmup(Duration newWarmup) {
        return toBuilder().warmup(newWarmup).build();
    }

    public RunPlan withReportEvery(Duration every) {
        return toBuilder().reportEvery(every).build();
    }

    /** The single role's rate changed (open loop when positive). */
    public RunPlan withRate(double opsPerSecond) {
        Role only = onlyRole("withRate");
        return toBuilder().roles(List.of(new Role(only.name(), only.clients(), opsPerSecond, only.after()))).build();
    }

    public RunPlan withIterations(long perClient) {
        return toBuilder().iterations(perClient).build();
    }

    /** The single role's client count changed. */
    public RunPlan withClients(int newClients) {
        Role only = onlyRole("withClients");
        return toBuilder().roles(List.of(new Role(only.name(), newClients, only.rate(), only.after()))).build();
    }

    public RunPlan withWorkers(int threads) {
        return toBuilder().workers(threads).build();
    }

    private Role onlyRole(String what) {
        if (roles.size() != 1) {
            throw new IllegalStateException(what + " applies to a plan of one role, not " + roles.size());
        }
        return roles.get(0);
    }

    /** Builds a {@link RunPlan}; defaults: 60 s, no warm-up or ramp, reports every 10 s, 10 attempts, seed 42. */
    public static final class Builder {
        private final List<Role> roles = new ArrayList<>();
        private Integer workers;
        private ThreadKind threads = ThreadKind.PLATFORM;
        private Duration duration = Duration.ofSeconds(60);
        private long iterations;
        private Duration warmup = Duration.ZERO;
        private Duration prime = Duration.ZERO;
        private Condition primeUntil;
        private Duration ramp = Duration.ZERO;
        private Duration reportEvery = Duration.ofSeconds(10);
        private int maxAttempts = 10;
        private long seed = 42;
        private final List<PhasePlan> phases = new ArrayList<>();
        private final List<DisruptionPlan> disruptions = new ArrayList<>();

        private Builder() {
        }

        /**
         * Adds a phase to the timeline; a plan with phases runs exactly them (their lengths replace the warm-up and
         * duration).
         */
        public Builder phase(PhasePlan phase) {
            phases.add(phase);
            return this;
        }

        /** Adds a disruption {@code at} after the start, for {@code length} (null: it runs to completion). */
        public Builder disruption(Disruption disruption, Duration at, Duration length) {
            return disruption(new DisruptionPlan(disruption, at, length));
        }

        /** Adds a disruption as planned (one another driver process injects: {@link DisruptionPlan#elsewhere()}). */
        public Builder disruption(DisruptionPlan planned) {
            disruptions.add(planned);
            return this;
        }

        /** The one role of a single-role workload ({@value Role#CLIENTS}): {@code clients} at {@code rate} (0 = closed loop). */
        public Builder clients(int clients, double rate) {
            return role(new Role(Role.CLIENTS, clients, rate));
        }

        public Builder role(Role role) {
            roles.add(role);
            return this;
        }

        /** Replaces the roles with {@code newRoles}. */
        public Builder roles(List<Role> newRoles) {
            roles.clear();
            roles.addAll(newRoles);
            return this;
        }

        /** Worker threads (default: all clients, at most {@value #DEFAULT_MAX_WORKERS}). */
        public Builder workers(int threads) {
            workers = threads;
            return this;
        }

        /** What the workers are (default: {@link ThreadKind#PLATFORM}, OS threads). */
        public Builder threads(ThreadKind kind) {
            threads = kind;
            return this;
        }

        /** Measured time after the warm-up; clears an iteration bound. */
        public Builder duration(Duration measured) {
            duration = measured;
            iterations = 0;
            return this;
        }

        /** Operations per client instead of a duration. */
        public Builder iterations(long perClient) {
            iterations = perClient;
            duration = null;
            return this;
        }

        /** Unmeasured time before everything else, so the driver is warm when the schedule begins. */
        public Builder prime(Duration time) {
            prime = time;
            primeUntil = null;
            return this;
        }

        /** A priming that ends when {@code until} holds, or after {@code limit}. */
        public Builder prime(Duration limit, Condition until) {
            prime = limit;
            primeUntil = until;
            return this;
        }

        public Builder warmup(Duration time) {
            warmup = time;
            return this;
        }

        public Builder ramp(Duration time) {
            ramp = time;
            return this;
        }

        public Builder reportEvery(Duration period) {
            reportEvery = period;
            return this;
        }

        public Builder maxAttempts(int attempts) {
            maxAttempts = attempts;
            return this;
        }

        public Builder seed(long value) {
            seed = value;
            return this;
        }

        public RunPlan build() {
            int clients = roles.stream().mapToInt(Role::clients).sum();
            int workerCount = workers != null ? workers : Math.max(1, Math.min(clients, DEFAULT_MAX_WORKERS));
            Duration measured = duration;
            Duration warm = warmup;
            if (!phases.isEmpty() && phases.stream().allMatch(p -> p.length() != null)) {
                // The named phases are the timeline: the duration is what they measure, the warm-up is in them.
                measured = phases.stream().filter(PhasePlan::measured).map(PhasePlan::length)
                        .reduce(Duration.ZERO, Duration::plus);
                warm = Duration.ZERO;
            }
            return new RunPlan(roles, workerCount, threads, iterations > 0 ? null : measured, iterations, warm, prime, primeUntil, ramp, reportEvery,
                    maxAttempts, seed, phases, disruptions);
        }
    }
}
