package dev.gauntlet.core.objective;

import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.ObjectiveOutcome;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * A service-level objective a run is judged by ({@code --slo}): a measure of the run's measured phase, a comparison
 * and a bound, as the user typed it, e.g. {@code p99(newOrder) <= 50ms}, {@code p99.9 <= 200ms}, {@code tpmC >= 20000},
 * {@code ops/s >= 5000}, {@code errors <= 0.1%}.
 *
 * <p>Latencies are read from the run's histograms (from each operation's intended start, so queueing counts), never
 * from averaged percentiles: a merged result ({@code report merge}) is judged on its merged histograms.
 *
 * @param text    the objective as typed (trimmed)
 * @param measure what is measured
 * @param name    the operation (or observed latency) a latency, throughput or error share is of, null for all
 *                operations; the metric's name for {@link Measure#METRIC}
 * @param percentile for {@link Measure#LATENCY}: the percentile, 0-100
 * @param atMost  whether the measure must stay at or below the bound (else at or above)
 * @param strict  whether equality misses it ({@code <}, {@code >})
 * @param bound   in the measure's unit: milliseconds, operations a second, a share (0-1), the metric's own
 */
public record Objective(String text, Measure measure, String name, double percentile, boolean atMost, boolean strict,
                        double bound) {

    /** What an objective measures. */
    public enum Measure {
        /** A percentile of latency from the intended start, in ms: {@code pNN} or {@code pNN(NAME)}. */
        LATENCY("ms"),
        /** Committed operations a second: {@code ops/s}, {@code tps} or {@code ops/s(NAME)}. */
        THROUGHPUT("ops/s"),
        /** The share of due operations that failed or were never issued: {@code errors} or {@code errors(NAME)}. */
        ERRORS("%"),
        /**
         * The most an open-loop run fell behind its schedule in its measured phases, in ms: {@code lag} (the age of the
         * oldest due operation no client had taken up, sampled every 20 ms).
         */
        LAG("ms"),
        /** A figure of the result's metrics ({@code tpmC}, {@code efficiencyPercent}, ...). */
        METRIC("");

        private final String unit;

        Measure(String unit) {
            this.unit = unit;
        }
    }

    /**
     * What {@code --help} says an objective looks like, as a picocli description takes it (a format string: its
     * {@code %} doubled, so it must be a constant here).
     */
    public static final String SYNTAX_IN_HELP = "MEASURE OP BOUND: p99 / p99.9(OPERATION) <= 50ms (us, ms, s); ops/s "
            + "or tps / ops/s(OPERATION) >= 5000; errors / errors(OPERATION) <= 0.1%%; lag <= 100ms (open loop: the "
            + "most the schedule fell behind); a metric of the result (tpmC >= 20000); OP is <=, <, >= or >";

    /** What an objective looks like, as a refusal says it. */
    public static final String SYNTAX = SYNTAX_IN_HELP.replace("%%", "%");

    /**
     * The metric {@code lag} reads: the most an open-loop run fell behind its schedule in its measured phases, in ms,
     * which the CLI's {@code Benchmark} adds to every open-loop result.
     */
    public static final String SCHEDULE_LAG = "scheduleLagMaxMs";

    private static final Pattern FORM = Pattern.compile("\\s*(.+?)\\s*(<=|>=|<|>)\\s*(.+?)\\s*");
    private static final Pattern CALL = Pattern.compile("([A-Za-z0-9_./]+)\\s*(?:\\(\\s*([^()]*?)\\s*\\))?");
    private static final Pattern PERCENTILE = Pattern.compile("p(\\d{1,3}(?:\\.\\d+)?)", Pattern.CASE_INSENSITIVE);
    private static final Pattern NUMBER =
            Pattern.compile("([0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)\\s*([\\p{L}%/]*)");

    /** Parses an objective; an {@link IllegalArgumentException} says in one line what is wrong with it. */
    public static Objective parse(String typed) {
        String text = typed.trim();
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not an objective (" + SYNTAX + ")");
        }
        boolean atMost = m.group(2).startsWith("<");
        boolean strict = m.group(2).length() == 1;
        Matcher call = CALL.matcher(m.group(1));
        if (!call.matches()) {
            throw new IllegalArgumentException("'" + text + "': '" + m.group(1) + "' is not a measure (" + SYNTAX
                    + ")");
        }
        String head = call.group(1);
        String name = call.group(2);
        if (name != null && name.isEmpty()) {
            throw new IllegalArgumentException("'" + text + "': name an operation between the parentheses, or leave "
                    + "them out for all operations");
        }
        Matcher value = NUMBER.matcher(m.group(3));
        if (!value.matches()) {
            throw new IllegalArgumentException("'" + text + "': '" + m.group(3) + "' is not a number");
        }
        double number = Double.parseDouble(value.group(1));
        String unit = value.group(2);
        Matcher p = PERCENTILE.matcher(head);
        if (p.matches()) {
            double percentile = Double.parseDouble(p.group(1));
            if (percentile <= 0 || percentile > 100) {
                throw new IllegalArgumentException("'" + text + "': a percentile is above 0 and at most 100");
            }
            return new Objective(text, Measure.LATENCY, name, percentile, atMost, strict, millis(text, number, unit));
        }
        String lower = head.toLowerCase(Locale.ROOT);
        if (lower.equals("ops/s") || lower.equals("tps")) {
            noUnit(text, unit, "operations a second");
            return new Objective(text, Measure.THROUGHPUT, name, 0, atMost, strict, number);
        }
        if (lower.equals("lag")) {
            if (name != null) {
                throw new IllegalArgumentException("'" + text + "': lag is the whole schedule's; leave out the operation");
            }
            return new Objective(text, Measure.LAG, null, 0, atMost, strict, millis(text, number, unit));
        }
        if (lower.equals("errors")) {
            double share = switch (unit) {
                case "%" -> number / 100;
                case "" -> number;
                default -> throw new IllegalArgumentException("'" + text + "': errors is a share: 0.1% or 0.001");
            };
            if (share > 1) {
                throw new IllegalArgumentException("'" + text + "': a share is at most 100%");
            }
            return new Objective(text, Measure.ERRORS, name, 0, atMost, strict, share);
        }
        if (name != null) {
            throw new IllegalArgumentException("'" + text + "': only a percentile, ops/s and errors take an operation;"
                    + " " + head + " is a metric of the whole run");
        }
        if (!unit.isEmpty() && !unit.equals("%")) {
            throw new IllegalArgumentException("'" + text + "': " + head + " is compared as the result states it; "
                    + "give the number without '" + unit + "'");
        }
        return new Objective(text, Measure.METRIC, head, 0, atMost, strict, number);
    }

    /** Parses each objective; the first one wrong is refused. */
    public static List<Objective> parseAll(Collection<String> typed) {
        List<Objective> all = new ArrayList<>();
        for (String t : typed) {
            all.add(parse(t));
        }
        return List.copyOf(all);
    }

    private static double millis(String text, double number, String unit) {
        return switch (unit.toLowerCase(Locale.ROOT)) {
            case "us", "µs" -> number / 1000;
            case "ms" -> number;
            case "s" -> number * 1000;
            case "" -> throw new IllegalArgumentException("'" + text + "': give the latency's unit (us, ms or s)");
            default -> throw new IllegalArgumentException("'" + text + "': '" + unit + "' is not a unit of time "
                    + "(us, ms or s)");
        };
    }

    private static void noUnit(String text, String unit, String what) {
        if (!unit.isEmpty()) {
            throw new IllegalArgumentException("'" + text + "': the bound is " + what + ", a number without '"
                    + unit + "'");
        }
    }

    /**
     * Refuses, before a run, an objective naming an operation the workload does not have: one line naming the known
     * ones. {@code observed} are the latencies the workload observes besides its operations (a queue's end to end).
     */
    public static void checkNames(List<Objective> objectives, Collection<String> operations,
                                  Collection<String> observed) {
        for (Objective o : objectives) {
            if (o.name == null || o.measure == Measure.METRIC) {
                continue;
            }
            boolean known = operations.contains(o.name) || o.measure == Measure.LATENCY && observed.contains(o.name);
            if (!known) {
                List<String> names = new ArrayList<>(operations);
                if (o.measure == Measure.LATENCY) {
                    names.addAll(observed);
                }
                throw new IllegalArgumentException("'" + o.text + "': no operation '" + o.name + "' (this workload's: "
                        + String.join(", ", names) + ")");
            }
        }
    }

    /** Judges this objective on a result's measured phase (or a merged result). */
    public ObjectiveOutcome judge(RunResult r) {
        Optional<Double> value = measured(r);
        if (value.isEmpty()) {
            return new ObjectiveOutcome(text, null, measure.unit, false, whyUnmeasured(r));
        }
        double v = value.get();
        boolean met = atMost ? (strict ? v < bound : v <= bound) : (strict ? v > bound : v >= bound);
        return new ObjectiveOutcome(text, v, measure.unit, met, null);
    }

    private Optional<Double> measured(RunResult r) {
        switch (measure) {
            case LATENCY: {
                Histogram h = latencies(r);
                return h == null || h.getTotalCount() == 0 ? Optional.empty()
                        : Optional.of(h.getValueAtPercentile(percentile) / 1e6);
            }
            case THROUGHPUT: {
                if (r.measuredSeconds() <= 0) {
                    return Optional.empty();
                }
                long count = name == null ? r.totalCount() : r.operation(name).map(OperationResult::count).orElse(0L);
                return Optional.of(count / r.measuredSeconds());
            }
            case ERRORS: {
                List<OperationResult> ops = name == null ? r.operations() : r.operation(name).stream().toList();
                long due = ops.stream().mapToLong(OperationResult::attempted).sum();
                long missed = ops.stream().mapToLong(o -> o.errors() + o.unissued()).sum();
                return due == 0 ? Optional.empty() : Optional.of((double) missed / due);
            }
            case LAG:
                return Optional.ofNullable(r.metrics().get(SCHEDULE_LAG));
            default:
                return Optional.ofNullable(r.metrics().get(name));
        }
    }

    /** The latencies from the intended start of the named operation or observation, or of every operation. */
    private Histogram latencies(RunResult r) {
        if (name == null) {
            return HistogramCodec.sum(r.operations().stream().map(OperationResult::histogram).toList());
        }
        Optional<String> one = r.operation(name).map(OperationResult::histogram)
                .or(() -> Optional.ofNullable(r.observations().get(name)).map(Timing::histogram));
        return one.map(e -> HistogramCodec.sum(List.of(e))).orElse(null);
    }

    private String whyUnmeasured(RunResult r) {
        return switch (measure) {
            case METRIC -> "the result has no metric '" + name + "' (it has: " + String.join(", ", r.metrics().keySet())
                    + ")";
            case THROUGHPUT -> "nothing was measured";
            case LAG -> "a closed-loop run has no schedule to fall behind (give it --rate)";
            default -> "no " + (name == null ? "operation" : "'" + name + "'") + " was measured";
        };
    }
}
