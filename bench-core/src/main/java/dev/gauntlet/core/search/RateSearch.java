package dev.gauntlet.core.search;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.CapacityOptions;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.RunOptions;
import dev.gauntlet.core.objective.Objective;
import dev.gauntlet.core.report.CapacityChart;
import dev.gauntlet.core.report.MarkdownTable;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ObjectiveOutcome;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.Condition;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.ScheduleCaughtUp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * {@code --find-max-rate}: the highest rate a system carries while meeting its objectives. The first step runs the
 * clients back to back (unthrottled: the raw rate); then steps at rising rates, from a start (or a share of
 * the raw rate) up by a step (or 15% of it), until one misses; then steps halve the gap between
 * the highest rate met and the lowest missed until it is within the resolution (a share of the rate met, at least
 * {@link Pacing#finest}); then a confirmation run at the answer, which must meet the objectives again. A rate counts
 * as missed only when it missed twice: a step that misses at a rate for the first time is run again at once, as the
 * answer is run twice, so one stall of a shared machine (a checkpoint, the JIT) does not decide the search. At most
 * {@value #MAX_STEPS} runs.
 *
 * <p>A step meets the objectives when it issued {@value #ISSUED_PERCENT}% of its rate, its priming ended with the
 * schedule caught up ({@link ScheduleCaughtUp}: a backlog the priming built is not measured, and a rate whose backlog
 * never clears is not sustained), no check failed, every objective was met, and the workload's own criterion (if any)
 * holds. The rate's unit and how a step is paced are the workload's ({@link Pacing}): operations a second on the
 * plan for most, messages a second of the writers for bench-queue.
 *
 * @param <P> what the benchmark prepared once
 */
public final class RateSearch<P> implements RunSearch<P> {

    /** A step's verdict: what it was asked and achieved, its objectives, and why it missed (empty: it met them). */
    public record StepVerdict(String label, double target, double achieved, List<ObjectiveOutcome> outcomes,
                              List<String> figures, List<String> failures) {
        public boolean met() {
            return failures.isEmpty();
        }
    }

    public static final int MAX_STEPS = 20;
    static final int ISSUED_PERCENT = 95;
    private static final double STEP_SHARE = 0.15;
    /** The least limit an unthrottled step's priming gets when it waits for the compilers to settle. */
    static final java.time.Duration RAW_PRIME_LIMIT = java.time.Duration.ofSeconds(60);
    private static final String UNTHROTTLED = "unthrottled";

    private final Pacing<P> pacing;
    private final List<Objective> objectives;
    private final double start;
    private final double step;
    private final double resolution;
    private final List<Double> targets = new ArrayList<>();
    /** The most the search may try ({@link Pacing#most}), as it last read it. */
    private double most = Double.POSITIVE_INFINITY;
    /** The verdicts of the steps judged so far (the raw step has none). */
    private final List<StepVerdict> judged = new ArrayList<>();
    /** Each step's priming condition, or null where it had none (the unthrottled step's is the workload's own). */
    private final List<ScheduleCaughtUp> primings = new ArrayList<>();

    /**
     * @param start      the first rate tried; 0: {@link Pacing#startShare()} of the raw rate
     * @param step       what each step adds until one misses; 0: 15% of the raw rate
     * @param resolution the search ends when the lowest miss is within this share of the highest rate met
     */
    public RateSearch(Pacing<P> pacing, List<Objective> objectives, double start, double step, double resolution) {
        if (objectives.isEmpty()) {
            throw new IllegalArgumentException("a rate search needs objectives to judge its steps by");
        }
        if (start < 0 || step < 0 || !(resolution > 0)) {
            throw new IllegalArgumentException("a rate search's start and step are not negative, its resolution positive");
        }
        this.pacing = pacing;
        this.objectives = List.copyOf(objectives);
        this.start = start;
        this.step = step;
        this.resolution = resolution;
    }

    /**
     * A capacity search as a run's options ask for it: from {@code --rate} (else a share of the raw rate), by
     * {@code --rate-step} to {@code --rate-resolution}, judged by the pacing's own objectives and {@code objectives}
     * ({@code --slo}) or, when there are neither, by the workload's {@code defaults}. Refused in one line where it
     * cannot run: it makes its own runs, one after another, in one process, each for {@code --duration}.
     */
    public static <P> RateSearch<P> of(RunOptions options, RunPlan base, List<Objective> objectives,
                                       List<String> defaults, Pacing<P> pacing, boolean experiment) {
        String refused = experiment ? "an experiment (--experiment, several --pool modes or the workload's dimension "
                + "options)" : options.planFile() != null ? "--plan" : options.startAt() != null ? "--start-at"
                : !options.share().whole() ? "--worker (a search from several drivers is not built yet)"
                : options.iterations() > 0 ? "--iterations (each step runs for --duration)" : null;
        if (refused != null) {
            throw new BadInputException(pacing.option() + " makes its own runs one after another: it does not "
                    + "combine with " + refused);
        }
        List<Objective> judged = new ArrayList<>(Objective.parseAll(pacing.objectives()));
        judged.addAll(objectives);
        if (judged.isEmpty()) {
            if (defaults.isEmpty()) {
                throw new BadInputException(pacing.option() + " needs an objective to judge its steps by: give --slo, "
                        + "e.g. --slo 'p99 <= 50ms'");
            }
            judged = Objective.parseAll(defaults);
        }
        CapacityOptions capacity = options.capacity();
        return new RateSearch<>(pacing, judged, pacing.start(base), capacity.rateStep(), capacity.resolution());
    }

    /** What the steps are judged by. */
    public List<Objective> objectives() {
        return objectives;
    }

    @Override
    public Step next(P prepared, RunPlan base, List<RunResult> done) {
        if (done.size() >= MAX_STEPS) {
            return null;
        }
        most = pacing.most(prepared);
        double rate;
        boolean confirming = false;
        boolean again = false;
        List<StepVerdict> verdicts = verdicts(done);
        StepVerdict latest = verdicts.isEmpty() ? null : verdicts.get(verdicts.size() - 1);
        if (done.isEmpty() && pacing.probesRaw()) {
            rate = 0;
        } else if (latest != null && !latest.met() && misses(verdicts, latest.target()) == 1) {
            rate = latest.target(); // a first miss at this rate: once more before it counts
            again = true;
        } else {
            double raw = pacing.probesRaw() ? pacing.achieved(done.get(0)) : most;
            if (!(raw > 0) || Double.isInfinite(raw)) {
                return null; // nothing ran unthrottled: there is no scale to search on
            }
            double lowestMiss = lowestMiss(verdicts);
            OptionalDouble best = highestMet(verdicts);
            if (verdicts.isEmpty()) {
                rate = Math.min(most, pacing.round(start > 0 ? start : pacing.startShare() * raw));
            } else if (Double.isNaN(lowestMiss) && latest.target() < most) {
                double by = step > 0 ? step : STEP_SHARE * raw;
                rate = Math.min(most, pacing.round(latest.target() + by));
            } else if (best.isEmpty()) {
                rate = pacing.round(lowestMiss / 2); // nothing met yet: halve until something is
                if (rate >= lowestMiss) {
                    return null;
                }
            } else {
                double met = best.getAsDouble();
                rate = Double.isNaN(lowestMiss) ? met : pacing.round((met + lowestMiss) / 2);
                boolean within = Double.isNaN(lowestMiss) // met at the most it may try
                        || lowestMiss - met <= Math.max(pacing.finest(), resolution * met);
                if (within || rate <= met || rate >= lowestMiss) {
                    if (mets(verdicts, met) > 1) {
                        return null; // met twice: the answer
                    }
                    rate = met;
                    confirming = true;
                }
            }
        }
        boolean firstThrottled = rate > 0 && targets.stream().noneMatch(t -> t > 0);
        targets.add(rate);
        RunPlan plan = pacing.at(prepared, base, rate);
        // A throttled step's priming waits for its schedule to catch up (a closed-loop step keeps the plan's own). Two
        // steps wait for the compilers to settle as well (--prime auto), for as long as RAW_PRIME_LIMIT whatever
        // --duration: the raw step, which sets the search's scale (else the raw rate is a cold one), and the first
        // throttled step, whose clients wait for their slots on code the back-to-back raw step did not run (primed a
        // quarter of --duration, it started behind its schedule and missed).
        boolean scheduled = rate > 0 && plan.openLoop() && !plan.prime().isZero();
        ScheduleCaughtUp caughtUp = scheduled ? new ScheduleCaughtUp() : null;
        boolean settle = plan.primeUntil() != null && (rate == 0 || scheduled && firstThrottled);
        if (scheduled || settle) {
            Condition until = !scheduled ? plan.primeUntil()
                    : settle ? Condition.allOf(plan.primeUntil(), caughtUp) : caughtUp;
            plan = plan.toBuilder().prime(settle && plan.prime().compareTo(RAW_PRIME_LIMIT) < 0 ? RAW_PRIME_LIMIT
                    : plan.prime(), until).build();
        }
        primings.add(caughtUp);
        String label = rate == 0 ? UNTHROTTLED : String.format(Locale.ROOT, "%s-%.0f",
                confirming ? "confirm" : again ? "again-" + pacing.stepLabel() : pacing.stepLabel(), rate);
        return new Step(label, plan);
    }

    /** The steps at {@code target} that missed. */
    private static long misses(List<StepVerdict> verdicts, double target) {
        return verdicts.stream().filter(v -> v.target() == target && !v.met()).count();
    }

    /** The steps at {@code target} that met the objectives. */
    private static long mets(List<StepVerdict> verdicts, double target) {
        return verdicts.stream().filter(v -> v.target() == target && v.met()).count();
    }

    /** The lowest rate missed twice; NaN when none was. */
    private static double lowestMiss(List<StepVerdict> verdicts) {
        return verdicts.stream().filter(v -> !v.met() && misses(verdicts, v.target()) > 1)
                .mapToDouble(StepVerdict::target).min().orElse(Double.NaN);
    }

    /** The highest rate met below the lowest miss (a rate missed twice counts as missed, whatever else it met). */
    private static OptionalDouble highestMet(List<StepVerdict> verdicts) {
        double miss = lowestMiss(verdicts);
        return verdicts.stream().filter(v -> v.met() && (Double.isNaN(miss) || v.target() < miss))
                .mapToDouble(StepVerdict::target).max();
    }

    /** The judged steps' verdicts, in order (an unthrottled first step has none); each step is judged once. */
    public List<StepVerdict> verdicts(List<RunResult> done) {
        int first = pacing.probesRaw() ? 1 : 0;
        for (int i = first + judged.size(); i < done.size(); i++) {
            judged.add(verdict(i, done.get(i)));
        }
        return List.copyOf(judged.subList(0, Math.max(0, done.size() - first)));
    }

    private StepVerdict verdict(int i, RunResult r) {
        double target = targets.get(i);
        double achieved = pacing.achieved(r);
        List<String> why = new ArrayList<>();
        if (achieved < ISSUED_PERCENT / 100.0 * target) {
            why.add(String.format(Locale.ROOT, "reached %s of %s %s", rate(achieved), rate(target), pacing.unit()));
        }
        ScheduleCaughtUp priming = primings.get(i);
        if (priming != null && !priming.caughtUp()) {
            why.add(String.format(Locale.ROOT, "the schedule had not caught up when the priming ended (%.2f s behind)",
                    priming.lastLag().toNanos() / 1e9));
        }
        List<ObjectiveOutcome> outcomes = objectives.stream().map(o -> o.judge(r)).toList();
        outcomes.stream().filter(o -> !o.met()).forEach(o -> why.add(o.objective() + ": " + o.value()));
        r.checks().stream().filter(c -> c.status() == Check.Status.FAIL).forEach(c -> why.add("check " + c.name() + " failed"));
        why.addAll(pacing.failures(r));
        return new StepVerdict(r.variant() == null ? "" : r.variant(), target, achieved, outcomes, pacing.figures(r),
                why);
    }

    @Override
    public Optional<String> afterStep(List<RunResult> done) {
        if (done.size() == 1 && pacing.probesRaw()) {
            return Optional.of(String.format(Locale.ROOT, "unthrottled: %s %s", rate(pacing.achieved(done.get(0))),
                    pacing.unit()));
        }
        List<StepVerdict> verdicts = verdicts(done);
        StepVerdict v = verdicts.get(verdicts.size() - 1);
        return Optional.of(String.format(Locale.ROOT, "%s %s: %s", rate(v.target()), pacing.unit(),
                v.met() ? "met the objectives (" + values(v) + ")" : "missed: " + String.join("; ", v.failures())));
    }

    /**
     * The answer in one line: {@code highest rate meeting the objectives: 4,100 ops/s (p99 <= 50ms: 38.2 ms); next
     * step 4,300 ops/s missed: p99 <= 50ms: 71.2 ms}.
     */
    public String answer(List<RunResult> done) {
        List<StepVerdict> verdicts = verdicts(done);
        OptionalDouble best = highestMet(verdicts);
        double miss = lowestMiss(verdicts);
        String next = Double.isNaN(miss) ? "no step missed (the search tries no more than " + rate(best.orElse(0))
                + " " + pacing.unit() + ")"
                : "next step " + rate(miss) + " " + pacing.unit() + " missed: " + String.join("; ",
                verdicts.stream().filter(v -> v.target() == miss && !v.met()).findFirst().orElseThrow().failures());
        if (best.isEmpty()) {
            return "nothing met the objectives; " + next;
        }
        StepVerdict at = last(verdicts, best.getAsDouble());
        return String.format(Locale.ROOT, "%s: %s %s (%s); %s", pacing.answerWords(), rate(at.target()),
                pacing.unit(), values(at), next);
    }

    /** The last step at {@code target}: the confirmation, where there was one. */
    private static StepVerdict last(List<StepVerdict> verdicts, double target) {
        StepVerdict found = null;
        for (StepVerdict v : verdicts) {
            if (v.target() == target) {
                found = v;
            }
        }
        return found;
    }

    private static String values(StepVerdict v) {
        List<String> all = new ArrayList<>(v.figures());
        v.outcomes().forEach(o -> all.add(o.objective() + ": " + o.value()));
        return String.join("; ", all);
    }

    private static String rate(double r) {
        return String.format(Locale.ROOT, r >= 100 || r == Math.rint(r) ? "%,.0f" : "%.1f", r);
    }

    @Override
    public String summary(List<RunResult> done) {
        String words = pacing.answerWords();
        StringBuilder md = new StringBuilder("# " + Character.toUpperCase(words.charAt(0)) + words.substring(1) + "\n\n");
        if (done.isEmpty()) {
            return md.append("No step ran.\n").toString();
        }
        List<StepVerdict> verdicts = verdicts(done);
        OptionalDouble best = highestMet(verdicts);
        boolean confirmed = best.isPresent() && mets(verdicts, best.getAsDouble()) > 1;
        String answer = answer(done);
        md.append("**").append(Character.toUpperCase(answer.charAt(0))).append(answer.substring(1)).append("**")
                .append(best.isEmpty() ? "" : confirmed ? " (met again by a confirmation run)"
                        : " (not confirmed: the search ran out of steps)")
                .append(pacing.probesRaw() ? String.format(Locale.ROOT, ".%n%nUnthrottled (the clients back to back): "
                        + "%s %s.%n%n", rate(pacing.achieved(done.get(0))), pacing.unit())
                        : String.format(Locale.ROOT, ".%n%nThe most it may try: %s %s.%n%n",
                        rate(most), pacing.unit()))
                .append("Objectives: ").append(String.join(", ", objectives.stream().map(o -> "`" + o.text() + "`")
                        .toList())).append(String.format(Locale.ROOT, ". A step meets them when it issues %d%% of its "
                        + "rate, its priming ends with the schedule caught up (no due operation over %d ms late for "
                        + "%d s), no check fails and every objective is met", ISSUED_PERCENT,
                        ScheduleCaughtUp.LATE.toMillis(), ScheduleCaughtUp.HOLD.toSeconds()))
                .append(pacing.criterion().isEmpty() ? "" : ", and " + pacing.criterion())
                .append(String.format(Locale.ROOT, ". The search: %s, then rising steps until one misses (or the most "
                        + "it may try is met), then halving the gap between the highest rate met and the lowest missed until it "
                        + "is within %.0f%% (at least %s %s), then a confirmation run at the answer; a rate counts as "
                        + "missed when it missed twice (a first miss is run again at once); at most %d runs, "
                        + "each its own directory (`step-NN-...`) with its result and report.%n%n",
                        pacing.probesRaw() ? "an unthrottled run" : "half the most it may try", 100 * resolution,
                        rate(pacing.finest()), pacing.unit(), MAX_STEPS));
        MarkdownTable t = new MarkdownTable().left("step").right("target " + pacing.unit(),
                "achieved " + pacing.unit());
        objectives.forEach(o -> t.right(o.text().replace("|", "\\|")));
        boolean figures = verdicts.stream().anyMatch(v -> !v.figures().isEmpty());
        if (figures) {
            t.left("figures");
        }
        t.left("verdict");
        int first = pacing.probesRaw() ? 1 : 0;
        for (int i = 0; i < done.size(); i++) {
            List<String> row = new ArrayList<>();
            row.add(String.valueOf(i + 1));
            if (i < first) {
                row.addAll(List.of(UNTHROTTLED, rate(pacing.achieved(done.get(0)))));
                objectives.forEach(o -> row.add(o.judge(done.get(0)).value()));
                if (figures) {
                    row.add(String.join("; ", pacing.figures(done.get(0))));
                }
                row.add("the raw rate");
            } else {
                StepVerdict v = verdicts.get(i - first);
                row.addAll(List.of(rate(v.target()), rate(v.achieved())));
                v.outcomes().forEach(o -> row.add(o.value()));
                if (figures) {
                    row.add(String.join("; ", v.figures()));
                }
                row.add(v.met() ? "met" : "missed: " + String.join("; ", v.failures()));
            }
            t.row(row.toArray(String[]::new));
        }
        md.append(t.render()).append('\n');
        if (!files(done).isEmpty()) {
            md.append("![latency against throughput](").append(CapacityChart.PNG).append(")\n");
        }
        return md.toString();
    }

    @Override
    public Map<String, byte[]> files(List<RunResult> done) {
        if (done.size() < 2) {
            return Map.of();
        }
        List<CapacityChart.Point> points = new ArrayList<>();
        for (StepVerdict v : verdicts(done)) {
            Map<String, Double> latencies = new LinkedHashMap<>();
            v.outcomes().stream().filter(o -> "ms".equals(o.unit()) && o.measured() != null)
                    .forEach(o -> latencies.put(o.objective(), o.measured()));
            points.add(new CapacityChart.Point(v.achieved(), v.met(), latencies));
        }
        Map<String, Double> budgets = new LinkedHashMap<>();
        objectives.stream().filter(o -> o.measure() == Objective.Measure.LATENCY)
                .forEach(o -> budgets.put(o.text(), o.bound()));
        OptionalDouble best = highestMet(verdicts(done));
        return CapacityChart.render(points, budgets, best.isPresent() ? last(verdicts(done), best.getAsDouble()).achieved()
                : Double.NaN, pacing.unit(), answer(done));
    }

    /** 1 when a check failed in a step, else 4 when no rate met the objectives, else 0. */
    @Override
    public int exitCode(List<RunResult> done) {
        if (done.stream().anyMatch(r -> r.checkStatus() == Check.Status.FAIL)) {
            return ExitCode.FAILED;
        }
        return highestMet(verdicts(done)).isPresent() ? ExitCode.OK : ExitCode.OBJECTIVE_MISSED;
    }
}
