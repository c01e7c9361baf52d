package dev.gauntlet.script.figures;

import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.Timing;
import dev.gauntlet.core.run.Failure;
import dev.gauntlet.core.run.OperationLog;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.script.workload.ScriptWorkload;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * pgbench 15's {@code -P} lines on standard error, one an interval from the run's own intervals: {@code progress: 5.0
 * s, 1234.5 tps, lat 1.234 ms stddev 0.321, 0 failed}, then {@code , lag 0.012 ms} under {@code -R}, {@code , N
 * retried, N retries} when transactions may be tried again; with {@code --progress-timestamp} the time is the Unix
 * epoch's, in seconds and milliseconds. Retried transactions and their retries are counted as each transaction ends
 * (this is also the workload's {@link OperationLog}).
 */
public final class PgbenchProgress implements RunListener, OperationLog {

    private static final double NANOS_PER_MS = 1e6;

    private final PrintStream err;
    private final boolean timestamp;
    private final boolean throttled;
    private final int maxTries;
    private final LongAdder retried = new LongAdder();
    private final LongAdder retries = new LongAdder();

    public PgbenchProgress(PrintStream err, boolean timestamp, boolean throttled, int maxTries) {
        this.err = err;
        this.timestamp = timestamp;
        this.throttled = throttled;
        this.maxTries = maxTries;
    }

    @Override
    public void onInterval(Interval interval, Map<String, Long> cumulativeCounts, double phaseSeconds) {
        Histogram all = null;
        long failed = 0;
        for (IntervalOperation op : interval.operations().values()) {
            failed += op.errors();
            if (op.histogram() != null) {
                Histogram h = HistogramCodec.decode(op.histogram());
                if (all == null) {
                    all = h.copy();
                } else {
                    all.add(h);
                }
            }
        }
        long count = all == null ? 0 : all.getTotalCount();
        String time;
        if (timestamp) {
            long now = System.currentTimeMillis();
            time = String.format(Locale.ROOT, "%d.%03d", now / 1000, now % 1000);
        } else {
            time = String.format(Locale.ROOT, "%.1f", interval.t());
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "progress: %s s, %.1f tps, lat %.3f ms stddev %.3f, %d failed", time,
                count / Math.max(interval.seconds(), 1e-9), count == 0 ? 0 : all.getMean() / NANOS_PER_MS,
                count == 0 ? 0 : all.getStdDeviation() / NANOS_PER_MS, failed));
        if (throttled) {
            Timing lag = interval.observations().get(ScriptWorkload.SCHEDULE_LAG);
            line.append(String.format(Locale.ROOT, ", lag %.3f ms", lag == null ? 0 : lag.latencyMs().mean()));
        }
        if (maxTries != 1) {
            line.append(", ").append(retried.sumThenReset()).append(" retried, ").append(retries.sumThenReset())
                    .append(" retries");
        }
        err.println(line);
        err.flush();
    }

    @Override
    public void onPhaseEnd(Phase phase) {
    }

    @Override
    public void ended(int client, String operation, long intended, long started, long ended, Failure failure,
                      int attempts) {
        if (attempts > 1) {
            retried.increment();
            retries.add(attempts - 1);
        }
    }

    @Override
    public void close() {
    }
}
