package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.objective.Objective;
import dev.gauntlet.core.result.RecoveryRule;
import dev.gauntlet.core.result.Durations;
import dev.gauntlet.core.run.PhasePlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * A run through faults, as read from a plan file ({@link PlanFile}): phases with their disruptions, the standby the
 * embedded topology (or the cluster) gets, the cluster Gauntlet starts for it (null: none), the rule for recovery, and
 * the objectives the run is judged by ({@code slo:}, beside any {@code --slo}). {@link #schedule} places every disruption on the run's timeline
 * (random ones from the run's seed) and refuses faults that would overlap.
 */
public record AdversityPlan(String name, String description, Standby standby, RecoveryRule recovery,
                            List<PlanPhase> phases, ClusterSpec cluster, List<Objective> objectives) {

    public AdversityPlan {
        phases = List.copyOf(phases);
        objectives = objectives == null ? List.of() : List.copyOf(objectives);
    }

    public AdversityPlan(String name, String description, Standby standby, RecoveryRule recovery,
                         List<PlanPhase> phases) {
        this(name, description, standby, recovery, phases, null, List.of());
    }

    /** This plan with another standby. */
    public AdversityPlan withStandby(Standby other) {
        return new AdversityPlan(name, description, other, recovery, phases, cluster, objectives);
    }

    /** This plan run on a cluster Gauntlet starts (null: the embedded servers or a URL). */
    public AdversityPlan withCluster(ClusterSpec other) {
        return new AdversityPlan(name, description, standby, recovery, phases, other, objectives);
    }

    /**
     * The phases as the runner takes them, a phase {@code until: recovered} with its condition (new for each call:
     * a condition keeps what it has heard of its run).
     */
    public List<PhasePlan> phasePlans() {
        return phasePlans(true);
    }

    /**
     * The phases as the runner takes them; with {@code conditions} false every phase lasts its planned length, a
     * phase {@code until: recovered} too (driver processes of one run keep one timeline: each would hear its own
     * share of the workload recover at its own moment).
     */
    public List<PhasePlan> phasePlans(boolean conditions) {
        return phases.stream().map(p -> {
            PhasePlan plan = new PhasePlan(p.name(), p.length(), p.measured());
            return p.untilRecovered() && conditions ? plan.until(new Recovered(recovery, p.name())) : plan;
        }).toList();
    }

    /** The phases {@code until: recovered}: a disruption's recovery is judged through them too. */
    public Set<String> recoveryPhases() {
        return Set.copyOf(recovery.recoveryPhases());
    }

    /** Whether some disruption starts at random times (drawn from the run's seed). */
    public boolean drawsAtRandom() {
        return phases.stream().flatMap(p -> p.disruptions().stream()).anyMatch(DisruptionSpec::random);
    }

    public Duration length() {
        return phases.stream().map(PlanPhase::length).reduce(Duration.ZERO, Duration::plus);
    }

    /** What the plan's disruptions need of the target. */
    public Set<DisruptionKind.Need> needs() {
        Set<DisruptionKind.Need> needs = EnumSet.noneOf(DisruptionKind.Need.class);
        phases.forEach(p -> p.disruptions().forEach(d -> needs.add(d.kind().need())));
        return needs;
    }

    /** The disruptions of a kind needing {@code need}, by label, for messages. */
    public List<String> needing(DisruptionKind.Need need) {
        return phases.stream().flatMap(p -> p.disruptions().stream()).filter(d -> d.kind().need() == need)
                .map(DisruptionSpec::label).distinct().toList();
    }

    /**
     * Checks that the servers every network fault singles out ({@code hosts}) are servers of the target:
     * {@code target} those of {@code --url}; null for the embedded topology, whose servers a plan names {@code n1}
     * (the primary at start) and {@code n2} (the standby) only, their ports being chosen when they start.
     *
     * @throws IllegalArgumentException {@code phase P, disruption N (kind): hosts: what is wrong}
     */
    public void checkHosts(TargetHosts target) {
        int embedded = standby == Standby.NONE ? 1 : 2;
        for (PlanPhase phase : phases) {
            for (int i = 0; i < phase.disruptions().size(); i++) {
                DisruptionSpec d = phase.disruptions().get(i);
                try {
                    if (target != null) {
                        target.positions(d.listOption("hosts"));
                        continue;
                    }
                    for (String host : d.listOption("hosts")) {
                        int place = TargetHosts.positionNamed(host);
                        if (place < 0 || place >= embedded) {
                            throw new IllegalArgumentException("'" + host + "' is no server of the embedded topology, "
                                    + (embedded == 1 ? "whose one server is n1 (no standby)"
                                    : "whose servers are n1 (the primary at start) and n2 (the standby)"));
                        }
                    }
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("phase " + phase.name() + ", disruption " + (i + 1) + " ("
                            + d.kind().label() + "): hosts: " + e.getMessage(), e);
                }
            }
        }
    }

    /**
     * Every disruption on the run's timeline, in start order. Random starts are drawn from {@code seed}: the same
     * plan and seed give the same times.
     *
     * @throws IllegalArgumentException when two faults would overlap, or a repeated disruption does not fit its phase
     */
    public List<ScheduledDisruption> schedule(long seed) {
        Random random = new Random(seed);
        List<ScheduledDisruption> all = new ArrayList<>();
        Duration phaseStart = Duration.ZERO;
        for (PlanPhase phase : phases) {
            for (DisruptionSpec d : phase.disruptions()) {
                List<Duration> starts = d.random() ? randomStarts(phase, d, random) : regularStarts(d);
                for (int i = 0; i < starts.size(); i++) {
                    String name = d.repeat() > 1 ? d.label() + "#" + (i + 1) : d.label();
                    Duration at = starts.get(i);
                    Duration end = d.length() == null ? at : at.plus(d.length());
                    if (end.compareTo(phase.length()) > 0 || at.compareTo(phase.length()) >= 0) {
                        throw new IllegalArgumentException("phase " + phase.name() + ": " + name + " at "
                                + Durations.format(at) + (d.length() == null ? "" : " for " + Durations.format(d.length()))
                                + " does not fit in the phase's " + Durations.format(phase.length()));
                    }
                    all.add(new ScheduledDisruption(name, phase.name(), d, phaseStart.plus(at), d.length()));
                }
            }
            phaseStart = phaseStart.plus(phase.length());
        }
        all.sort(Comparator.comparing(ScheduledDisruption::at));
        List<ScheduledDisruption> faults = all.stream().filter(s -> s.spec().kind().exclusive()).toList();
        for (int i = 1; i < faults.size(); i++) {
            ScheduledDisruption before = faults.get(i - 1);
            ScheduledDisruption after = faults.get(i);
            if (after.at().compareTo(before.disturbedUntil()) < 0) {
                throw new IllegalArgumentException(before.name() + " (" + span(before) + ") and " + after.name() + " ("
                        + span(after) + ") overlap; faults cannot coexist" + (before.length() == null
                        ? " (" + before.spec().kind().label() + " disturbs for about "
                        + Durations.format(before.spec().kind().footprint()) + ")" : "")
                        + (before.spec().listOption("hosts").isEmpty() && after.spec().listOption("hosts").isEmpty()
                        ? "" : ", on different servers too (recovery is judged on the whole workload from each one's "
                        + "end; one network fault takes several hosts)"));
            }
        }
        return all;
    }

    private static String span(ScheduledDisruption s) {
        return "at " + Durations.format(s.at()) + (s.length() == null ? "" : " for " + Durations.format(s.length()));
    }

    private static List<Duration> regularStarts(DisruptionSpec d) {
        List<Duration> starts = new ArrayList<>();
        for (int i = 0; i < d.repeat(); i++) {
            starts.add(d.at().plus(d.every().multipliedBy(i)));
        }
        return starts;
    }

    /**
     * {@code repeat} starts in [at, until (or the phase's end) - length], at least a length (or footprint) plus one second apart: the
     * free time is cut at sorted uniform points, so every arrangement is equally likely and none overlap.
     */
    private static List<Duration> randomStarts(PlanPhase phase, DisruptionSpec d, Random random) {
        Duration each = d.length() != null ? d.length()
                : d.kind().footprint() != null ? d.kind().footprint() : Duration.ZERO;
        long eachMillis = each.toMillis() + 1000;
        Duration until = d.until() != null && d.until().compareTo(phase.length()) < 0 ? d.until() : phase.length();
        long room = until.minus(d.at()).toMillis() - eachMillis * d.repeat() + 1000;
        if (room < 0) {
            throw new IllegalArgumentException("phase " + phase.name() + ": " + d.repeat() + " x " + d.label()
                    + " of " + Durations.format(each) + " do not fit between " + Durations.format(d.at())
                    + " and " + Durations.format(until));
        }
        long[] cuts = new long[d.repeat()];
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = (long) (random.nextDouble() * room);
        }
        java.util.Arrays.sort(cuts);
        List<Duration> starts = new ArrayList<>();
        for (int i = 0; i < cuts.length; i++) {
            starts.add(d.at().plusMillis(cuts[i] + i * eachMillis));
        }
        return starts;
    }
}
