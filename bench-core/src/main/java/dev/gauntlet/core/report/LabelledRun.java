package dev.gauntlet.core.report;

import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.ResultFormatException;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A run with the name a comparison calls it by: its variant when it has one, else where it came from (the run
 * directory), else its workload and start time.
 *
 * @param label  the column header and winner name in a comparison
 * @param source where the result was read from (a directory name), or null
 * @param result the run
 */
public record LabelledRun(String label, String source, RunResult result) {

    public LabelledRun {
        if (label == null || label.isBlank()) {
            throw new IllegalArgumentException("a labelled run needs a label");
        }
    }

    /** Labels {@code result} by its variant, falling back to {@code source}, then to workload and start time. */
    public static LabelledRun of(RunResult result, String source) {
        String label;
        if (result.variant() != null && !result.variant().isBlank()) {
            label = result.variant();
        } else if (source != null && !source.isBlank()) {
            label = source;
        } else {
            label = Figures.orDash(result.workload()) + " " + Figures.orDash(result.startedAt());
        }
        return new LabelledRun(label.strip(), source, result);
    }

    /**
     * Reads a result file or a run directory, decoding every histogram up front so that a corrupt one is
     * reported with the file's name here rather than later, deep inside a merge, without it.
     *
     * @throws ResultFormatException naming the file, when it is missing, corrupt, foreign or too new
     */
    public static LabelledRun read(Path fileOrDir) {
        Path file = ResultFile.locate(fileOrDir);
        RunResult result = ResultFile.read(file);
        try {
            histograms(result).forEach(HistogramCodec::decode);
        } catch (ResultFormatException e) {
            throw new ResultFormatException(file + ": " + e.getMessage());
        }
        Path dir = file.toAbsolutePath().normalize().getParent();
        return of(result, dir == null || dir.getFileName() == null ? file.toString() : dir.getFileName().toString());
    }

    /** Makes labels unique, first by adding the source, then the position, so a winner is never ambiguous. */
    public static List<LabelledRun> distinct(List<LabelledRun> runs) {
        List<LabelledRun> out = new ArrayList<>(runs);
        for (int pass = 0; pass < 2; pass++) {
            Map<String, Integer> seen = new HashMap<>();
            out.forEach(r -> seen.merge(r.label(), 1, Integer::sum));
            for (int i = 0; i < out.size(); i++) {
                LabelledRun r = out.get(i);
                if (seen.get(r.label()) > 1) {
                    String suffix = pass == 0 && r.source() != null && !r.source().equals(r.label())
                            ? " (" + r.source() + ")" : " #" + (i + 1);
                    out.set(i, new LabelledRun(r.label() + suffix, r.source(), r.result()));
                }
            }
        }
        return out;
    }

    private static Stream<String> histograms(RunResult r) {
        Stream<String> ops = r.operations().stream().flatMap(o -> Stream.of(o.histogram(),
                timingHistogram(o.serviceTime()), timingHistogram(o.poolWait())));
        Stream<String> intervals = r.intervals().stream().map(Interval::operations)
                .flatMap(m -> m.values().stream()).map(IntervalOperation::histogram);
        return Stream.concat(ops, intervals).filter(java.util.Objects::nonNull);
    }

    private static String timingHistogram(Timing t) {
        return t == null ? null : t.histogram();
    }
}
