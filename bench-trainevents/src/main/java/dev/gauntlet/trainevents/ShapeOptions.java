package dev.gauntlet.trainevents;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.DurationConverter;
import dev.gauntlet.trainevents.workload.TrainEventsWorkload;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The lifecycle's shape as options: batch sizes, the delay between cycles, the lock hold, the share that fails. */
public final class ShapeOptions {

    @Option(names = "--min-batch", paramLabel = "N", defaultValue = "10",
            description = "Fewest events a cycle adds (default: ${DEFAULT-VALUE}).")
    int minBatch;
    @Option(names = "--max-batch", paramLabel = "N", defaultValue = "100",
            description = "Most events a cycle adds (default: ${DEFAULT-VALUE}); process claims up to 3x the cycle's "
                    + "batch, archive up to 2x.")
    int maxBatch;
    @Option(names = "--delay", paramLabel = "TIME", defaultValue = "0s", converter = DurationConverter.class,
            description = "Pause before each cycle, jittered uniformly between 0.5x and 1.5x (default: ${DEFAULT-VALUE}); "
                    + "a waiting client holds no connection and no thread.")
    Duration delay;
    @Option(names = "--lock-hold", paramLabel = "TIME", defaultValue = "0s", converter = DurationConverter.class,
            description = "Sleep this long in process while holding the claimed rows' locks, as the dbworkload demo "
                    + "did (default: ${DEFAULT-VALUE}, none); recorded apart as lockHold.")
    Duration lockHold;
    @Option(names = "--fail-percent", paramLabel = "PERCENT", defaultValue = "4",
            description = "Share of events processing marks FAILED instead of COMPLETE (default: ${DEFAULT-VALUE}%%).")
    double failPercent;

    void validate() {
        if (minBatch < 1 || maxBatch < 1) {
            throw new BadInputException("--min-batch and --max-batch must be at least 1 (got " + minBatch + " and "
                    + maxBatch + ")");
        }
        if (minBatch > maxBatch) {
            throw new BadInputException("--min-batch " + minBatch + " is more than --max-batch " + maxBatch);
        }
        if (maxBatch > 10_000) {
            throw new BadInputException("--max-batch must be at most 10000 events a transaction (got " + maxBatch + ")");
        }
        if (delay.isNegative() || lockHold.isNegative()) {
            throw new BadInputException("--delay and --lock-hold must not be negative");
        }
        if (!(failPercent >= 0 && failPercent <= 100)) {
            throw new BadInputException("--fail-percent must be between 0 and 100 (got " + failPercent + ")");
        }
    }

    TrainEventsWorkload.Shape shape() {
        return new TrainEventsWorkload.Shape(minBatch, maxBatch, delay.toNanos(), lockHold.toNanos(), failPercent / 100);
    }

    Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("minBatch", minBatch);
        p.put("maxBatch", maxBatch);
        p.put("delay", DurationConverter.format(delay));
        p.put("lockHold", DurationConverter.format(lockHold));
        p.put("failPercent", failPercent);
        return p;
    }
}
