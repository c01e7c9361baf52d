package dev.gauntlet.script.workload;

import dev.gauntlet.core.run.Failure;
import dev.gauntlet.core.run.OperationLog;
import dev.gauntlet.sql.SqlStates;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * pgbench 15's transaction logs ({@code -l}): a file for each of pgbench's threads, {@code PREFIX.PID} for the first and
 * {@code PREFIX.PID.N} for the others, each client's transactions in its thread's file (pgbench deals clients to
 * threads in blocks). A line a transaction, {@code client transaction_no latency_us script_no epoch_s epoch_us [lag_us]
 * [retries]} ({@code failed}, or {@code serialization}/{@code deadlock} with {@code --failures-detailed}, in place of
 * the latency of a transaction that failed for good), or with {@code --aggregate-interval} a line an interval:
 * {@code start_s count latency_sum latency_sum2 latency_min latency_max lag_sum lag_sum2 lag_min lag_max skipped retried
 * retries serialization_failures deadlock_failures}, the interval not yet over when the run ends left out, as
 * pgbench does. {@code --sampling-rate} keeps that share of the transactions. The times are those the run's histograms
 * record ({@link OperationLog}).
 */
public final class PgbenchTransactionLog implements OperationLog {

    /**
     * @param prefix           the files' prefix (pgbench's {@code --log-prefix}, default {@code pgbench_log})
     * @param samplingRate     the share of transactions logged, 0 for all
     * @param aggregateSeconds the interval of an aggregated line, 0 for a line a transaction
     */
    public record Settings(String prefix, double samplingRate, int aggregateSeconds) {
    }

    private static final long MICROS = 1_000_000L;

    private final Settings settings;
    private final boolean throttled;
    private final int maxTries;
    private final boolean failuresDetailed;
    private final int firstClient;
    private final Map<String, Integer> scriptOf = new HashMap<>();
    private final ThreadFile[] files;
    private final int[] fileOf;
    private final long[] transactions;
    /** From {@code System.nanoTime()} in microseconds to microseconds since the Unix epoch. */
    private final long epochShiftMicros = System.currentTimeMillis() * 1000 - System.nanoTime() / 1000;

    /**
     * Opens the files, as pgbench does before its threads start.
     *
     * @throws UncheckedIOException when a file cannot be opened ({@code could not open logfile "P": REASON})
     */
    public PgbenchTransactionLog(Settings settings, List<CompiledScript> scripts, int clients, int threads,
                                 boolean throttled, int maxTries, boolean failuresDetailed, int firstClient) {
        this.settings = settings;
        this.throttled = throttled;
        this.maxTries = maxTries;
        this.failuresDetailed = failuresDetailed;
        this.firstClient = firstClient;
        scripts.forEach(s -> scriptOf.put(s.operation(), s.index()));
        long pid = ProcessHandle.current().pid();
        long start = (nowMicros() / MICROS) * MICROS;
        files = new ThreadFile[threads];
        fileOf = new int[clients];
        transactions = new long[clients];
        int dealt = 0;
        for (int t = 0; t < threads; t++) {
            int n = (clients - dealt + threads - t - 1) / (threads - t);
            for (int c = dealt; c < dealt + n; c++) {
                fileOf[c] = t;
            }
            dealt += n;
            Path path = Path.of(settings.prefix() + "." + pid + (t == 0 ? "" : "." + t));
            try {
                files[t] = new ThreadFile(Files.newBufferedWriter(path, StandardCharsets.UTF_8), start);
            } catch (IOException e) {
                close();
                throw new UncheckedIOException("could not open logfile \"" + path + "\": " + e.getMessage(), e);
            }
        }
    }

    private long nowMicros() {
        return System.nanoTime() / 1000 + epochShiftMicros;
    }

    @Override
    public void ended(int client, String operation, long intended, long started, long ended, Failure failure,
                      int attempts) {
        String estatus = null;
        if (failure != null) {
            if (failure.kind() != Failure.Kind.RETRY) {
                return; // pgbench's client ends on any other error: no line
            }
            estatus = !failuresDetailed ? "failed" : SqlStates.DEADLOCK.equals(failure.code()) ? "deadlock"
                    : "serialization";
        }
        ThreadFile f = files[fileOf[client]];
        long epochMicros = ended / 1000 + epochShiftMicros;
        double latency = (ended - (throttled ? intended : started)) / 1000.0;
        double lag = throttled ? (started - intended) / 1000.0 : 0;
        synchronized (f) {
            long number = ++transactions[client];
            if (settings.samplingRate() != 0 && f.sample.nextDouble() > settings.samplingRate()) {
                return;
            }
            if (settings.aggregateSeconds() > 0) {
                f.flushIntervalsBefore(epochMicros);
                f.add(estatus, latency, lag, attempts);
                return;
            }
            StringBuilder line = new StringBuilder().append(firstClient + client).append(' ').append(number)
                    .append(' ').append(estatus != null ? estatus : String.format(Locale.ROOT, "%.0f", latency)).append(' ')
                    .append(scriptOf.getOrDefault(operation, 0)).append(' ').append(epochMicros / MICROS).append(' ')
                    .append(epochMicros % MICROS);
            if (throttled) {
                line.append(' ').append(String.format(Locale.ROOT, "%.0f", lag));
            }
            if (maxTries != 1) {
                line.append(' ').append(attempts - 1);
            }
            f.write(line.append('\n').toString());
        }
    }

    @Override
    public void close() {
        long now = nowMicros();
        for (ThreadFile f : files) {
            if (f == null) {
                continue;
            }
            synchronized (f) {
                if (settings.aggregateSeconds() > 0) {
                    f.flushIntervalsBefore(now);
                }
                try {
                    f.out.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    /** One of pgbench's threads' log file, and its interval being aggregated. */
    private final class ThreadFile {
        final BufferedWriter out;
        final SplittableRandom sample = new SplittableRandom();
        long start;
        long count;
        double sum;
        double sum2;
        double min;
        double max;
        double lagSum;
        double lagSum2;
        double lagMin;
        double lagMax;
        long retried;
        long retries;
        long serialization;
        long deadlock;

        ThreadFile(BufferedWriter out, long start) {
            this.out = out;
            this.start = start;
        }

        void write(String text) {
            try {
                out.write(text);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** pgbench's doLog: every interval that ended by {@code nowMicros}, empty ones too, then a new one. */
        void flushIntervalsBefore(long nowMicros) {
            long next;
            while ((next = start + settings.aggregateSeconds() * MICROS) <= nowMicros) {
                write(String.format(Locale.ROOT, "%d %d %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %d %d %d %d %d\n", start / MICROS,
                        count, sum, sum2, min, max, throttled ? lagSum : 0, throttled ? lagSum2 : 0,
                        throttled ? lagMin : 0, throttled ? lagMax : 0, 0, maxTries != 1 ? retried : 0,
                        maxTries != 1 ? retries : 0, failuresDetailed ? serialization : 0,
                        failuresDetailed ? deadlock : 0));
                start = next;
                count = 0;
                sum = sum2 = min = max = lagSum = lagSum2 = lagMin = lagMax = 0;
                retried = retries = serialization = deadlock = 0;
            }
        }

        /** pgbench's accumStats: a failure counted by its kind, a success's latency and lag summed. */
        void add(String estatus, double latency, double lag, int attempts) {
            if (estatus != null) {
                if (estatus.equals("deadlock")) {
                    deadlock++;
                } else {
                    serialization++;
                }
                return;
            }
            if (count == 0 || latency < min) {
                min = latency;
            }
            if (count == 0 || latency > max) {
                max = latency;
            }
            if (count == 0 || lag < lagMin) {
                lagMin = lag;
            }
            if (count == 0 || lag > lagMax) {
                lagMax = lag;
            }
            count++;
            sum += latency;
            sum2 += latency * latency;
            lagSum += lag;
            lagSum2 += lag * lag;
            if (attempts > 1) {
                retried++;
                retries += attempts - 1;
            }
        }
    }
}
