package dev.gauntlet.rocksdb.dbbench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What db_bench printed, read back: every per-run line, and the final AVG/MEDIAN summary of repeated runs
 * when there is one. db_bench's progress counter ({@code ... finished N ops}) rewrites its line with
 * carriage returns, so a per-run line may share a physical line with it; lines are split on CR as well as LF.
 */
public record DbBenchOutput(List<RunLine> runs, Optional<RepeatSummary> summary) {

    public static DbBenchOutput parse(String text) {
        List<RunLine> runs = new ArrayList<>();
        String lastAverage = null;
        RepeatSummary summary = null;
        for (String line : text.split("[\\r\\n]+")) {
            Optional<RunLine> run = RunLine.parse(line);
            if (run.isPresent()) {
                runs.add(run.get());
            } else if (RepeatSummary.isAverageLine(line)) {
                lastAverage = line;
            } else if (RepeatSummary.isMedianLine(line) && lastAverage != null) {
                summary = RepeatSummary.parse(lastAverage, line).orElse(summary);
            }
        }
        return new DbBenchOutput(List.copyOf(runs), Optional.ofNullable(summary));
    }

    /** The per-run lines of one benchmark. */
    public List<RunLine> runsOf(String benchmark) {
        return runs.stream().filter(r -> r.name().equals(benchmark)).toList();
    }
}
