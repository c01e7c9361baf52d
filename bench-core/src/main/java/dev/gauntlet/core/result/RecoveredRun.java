package dev.gauntlet.core.result;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * A result made from what a run whose driver died left in its directory: {@value #STARTED} (written before the first
 * operation: who, where, what and the phases planned, with no figures) and the {@link TimelineFile} (every interval
 * closed before the driver died). Every figure comes from those intervals, added up exactly as a result's own would
 * be (the operations' histograms over the measured phases' intervals, each phase's over its own), and nothing from
 * what the run did not close: the last interval before the kill is lost, and so are the figures only a finished run
 * computes (service time, pool wait, probes' rises, the workload's metrics and checks). The result says so in one line
 * ({@link #INCOMPLETE}): when the driver stopped against when the run was planned to end.
 */
public final class RecoveredRun {

    /** What a run writes before its first operation, and removes when its result is written. */
    public static final String STARTED = "started.json";
    /** The parameter saying a result was recovered, and how far the run got. */
    public static final String INCOMPLETE = "incomplete";
    /** The stop reason of a recovered run. */
    public static final String DRIVER_DIED = "driver died";

    private RecoveredRun() {
    }

    /** Whether {@code dir} holds a run that started and never wrote its result. */
    public static boolean applies(Path dir) {
        return Files.isRegularFile(dir.resolve(STARTED)) && !Files.isRegularFile(dir.resolve(ResultFile.NAME));
    }

    /** Whether the run in {@code dir} ended with its driver dead: started and never wrote a result, or recovered. */
    public static boolean driverDied(Path dir) {
        return applies(dir) || DRIVER_DIED.equals(recordedParameters(dir).get("stopReason"));
    }

    /**
     * The parameters the run in {@code dir} recorded: its result's, or, for a driver that died and was not recovered,
     * what it wrote as it started; none when it left neither.
     *
     * @throws ResultFormatException when the file is there and is not a result
     */
    public static Map<String, Object> recordedParameters(Path dir) {
        Path file = dir.resolve(Files.isRegularFile(dir.resolve(ResultFile.NAME)) ? ResultFile.NAME : STARTED);
        if (!Files.isRegularFile(file)) {
            return Map.of();
        }
        Map<String, Object> parameters = ResultFile.read(file).parameters();
        return parameters == null ? Map.of() : parameters;
    }

    /**
     * The result of the dead run in {@code dir}.
     *
     * @throws ResultFormatException when the directory holds no started run, or its files cannot be read
     */
    public static RunResult of(Path dir) {
        Path startedFile = dir.resolve(STARTED);
        if (!Files.isRegularFile(startedFile)) {
            throw new ResultFormatException(dir + ": no " + STARTED + " (the run did not start, or its result was "
                    + "written)");
        }
        RunResult started = ResultFile.read(startedFile);
        Path timelineFile = dir.resolve(TimelineFile.NAME);
        List<Phase> planned = started.phases();
        double period = reportEvery(started);
        double plannedSeconds = planned.isEmpty() ? 0 : planned.get(planned.size() - 1).endSeconds();
        InlineIntervals inline = new InlineIntervals(period, plannedSeconds, name -> GaugeInfo.Kind.LEVEL);
        Map<String, Totals> phases = new LinkedHashMap<>();
        InlineIntervals.Sum measured = new InlineIntervals.Sum(Phase.MEASURE, name -> GaugeInfo.Kind.LEVEL);
        double measuredSeconds = 0;
        double lastT = 0;
        long count = 0;
        String phase = null;
        if (Files.isRegularFile(timelineFile)) {
            try (TimelineFile.Reader intervals = TimelineFile.open(timelineFile)) {
                while (intervals.hasNext()) {
                    Interval interval = intervals.next();
                    if (phase != null && !phase.equals(interval.phase())) {
                        inline.endPhase();
                    }
                    phase = interval.phase();
                    inline.add(interval);
                    phases.computeIfAbsent(interval.phase(), name -> new Totals(name, interval)).add(interval);
                    if (measured(planned, interval.phase())) {
                        measured.add(interval);
                        measuredSeconds += interval.seconds();
                    }
                    lastT = interval.t();
                    count++;
                }
            }
        }
        Map<String, Object> parameters = new LinkedHashMap<>(started.parameters());
        parameters.put("stopReason", DRIVER_DIED);
        parameters.put(INCOMPLETE, String.format(Locale.ROOT, "recovered after the driver died: the last interval "
                        + "it closed ended %.1f s into the run, planned to last %.1f s; %d interval(s) kept, figures "
                        + "only a finished run computes (service time, probes, the workload's metrics and checks) "
                        + "are not here", lastT, plannedSeconds, count));
        List<Phase> ran = new ArrayList<>();
        phases.values().forEach(t -> ran.add(t.phase(measured(planned, t.name))));
        Instant start = Instant.parse(started.startedAt());
        Interval total = measured.total();
        return started.toBuilder()
                .endedAt(start.plusMillis(Math.round(lastT * 1000)).toString())
                .measuredSeconds(measuredSeconds)
                .parameters(parameters)
                .operations(total == null ? List.of() : operations(total, measuredSeconds))
                .intervals(inline.intervals())
                .phases(ran)
                .errors(total == null ? List.of() : errors(total))
                .fullTimeline(count == 0 ? null : new FullTimeline(TimelineFile.NAME, count))
                .build();
    }

    /** Writes the recovered result into {@code dir} and removes {@value #STARTED}: the run is now a result. */
    public static RunResult recover(Path dir) throws IOException {
        RunResult result = of(dir);
        ResultFile.write(result, dir.resolve(ResultFile.NAME));
        Files.delete(dir.resolve(STARTED));
        return result;
    }

    private static boolean measured(List<Phase> planned, String phase) {
        return planned.stream().filter(p -> p.name().equals(phase)).findFirst().map(Phase::isMeasured)
                .orElse(!Phase.WARMUP.equals(phase) && !Phase.PRIME.equals(phase));
    }

    /** The reporting period the run planned, in seconds; 1 where it is unsaid. */
    private static double reportEvery(RunResult started) {
        Object every = started.parameters().get("reportEvery");
        try {
            return every == null ? 1 : Durations.parse(every.toString()).toNanos() / 1e9;
        } catch (IllegalArgumentException notADuration) {
            return 1;
        }
    }

    private static List<OperationResult> operations(Interval total, double seconds) {
        List<OperationResult> list = new ArrayList<>();
        total.operations().forEach((name, op) -> {
            Histogram h = op.histogram() == null ? new Histogram(3) : HistogramCodec.decode(op.histogram());
            list.add(OperationResult.of(name, op.count(), op.errors(), op.retries(),
                    seconds > 0 ? op.count() / seconds : 0, LatencySummary.of(h), HistogramCodec.encode(h), null, null,
                    op.counters()));
        });
        return list;
    }

    /** The measured intervals' failures by class (their codes and examples went with the driver). */
    private static List<ErrorCount> errors(Interval total) {
        List<ErrorCount> list = new ArrayList<>();
        total.failures().forEach((failureClass, n) -> {
            if (!Interval.REOPENED.equals(failureClass) && n > 0) {
                list.add(new ErrorCount(failureClass, null, n, null));
            }
        });
        return list;
    }

    /** One phase as it ran: from its first interval's start to its last's end, its operations summed. */
    private static final class Totals {
        final String name;
        final double start;
        double end;
        final InlineIntervals.Sum sum;

        Totals(String name, Interval first) {
            this.name = name;
            this.start = first.t() - first.seconds();
            this.sum = new InlineIntervals.Sum(name, n -> GaugeInfo.Kind.LEVEL);
        }

        void add(Interval interval) {
            end = interval.t();
            sum.add(interval);
        }

        Phase phase(boolean measured) {
            return new Phase(name, start, end, Map.of(), measured, Objects.requireNonNull(sum.total()).operations());
        }
    }
}
