package dev.gauntlet.tpcc;

import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.TimelineFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a plan's recovery rule saw around one disruption, for the message of a test that failed on "not recovered":
 * the baseline's newOrder p95 and ops/s, and newOrder's count and p95 in each interval from the disruption's start to
 * 45 s after its end. The tests that run plans against a server of the user's own print it, so a failure on another
 * machine says whether the workload never came back or came back too late for the phase.
 */
final class RecoveryStory {

    private RecoveryStory() {
    }

    /** A run's intervals: its timeline file where it wrote one, else those in its result. */
    static List<Interval> intervals(Path out, RunResult r) throws IOException {
        List<Interval> intervals = new ArrayList<>();
        if (Files.exists(out.resolve(TimelineFile.NAME))) {
            TimelineFile.read(out.resolve(TimelineFile.NAME), intervals::add);
        } else {
            intervals.addAll(r.intervals());
        }
        return intervals;
    }

    static String of(RunResult r, List<Interval> intervals, DisruptionRecord d) {
        StringBuilder b = new StringBuilder();
        r.metrics().forEach((k, v) -> {
            if (k.endsWith("baselineP95Ms") || k.endsWith("baselineOpsPerSecond")) {
                b.append(k).append(' ').append(v).append('\n');
            }
        });
        for (Interval i : intervals) {
            if (i.t() > d.startSeconds() && i.t() <= d.endSeconds() + 45) {
                var op = i.operations().get("newOrder");
                b.append(String.format("t %.0f %s newOrder %s%n", i.t(), i.phase(),
                        op == null ? "none" : op.count() + " p95 " + op.p95() + " ms"));
            }
        }
        return b.toString();
    }
}
