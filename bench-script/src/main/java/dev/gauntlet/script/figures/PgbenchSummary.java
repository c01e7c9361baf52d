package dev.gauntlet.script.figures;

import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import dev.gauntlet.script.workload.CompiledScript;
import dev.gauntlet.script.workload.ScriptRun;
import dev.gauntlet.script.workload.ScriptWorkload;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * The end of a run as pgbench prints it, in its words and layout, each figure with pgbench's meaning (latency from
 * each transaction's actual start without {@code -R}, from its schedule with it), then Gauntlet's percentiles from
 * the intended start: per script and, with {@code -r}, per command.
 */
public final class PgbenchSummary {

    private static final double NANOS_PER_MS = 1e6;

    /** How the run was set up, as pgbench's header reports it. */
    public record Setup(long scale, String queryMode, int clients, int threads, int maxTries, Long durationSeconds,
                        Long transactionsPerClient, Double latencyLimitMs, boolean throttled, boolean progress,
                        boolean perCommand, boolean failuresDetailed, double initialConnectionMs,
                        boolean connectEach) {
    }

    private PgbenchSummary() {
    }

    /** The summary's text, lines ending in newlines: pgbench's, then Gauntlet's percentiles. */
    public static String text(RunResult r, Setup s, List<CompiledScript> scripts, ScriptRun run) {
        return text(r, s, scripts, run, true);
    }

    /** The summary's text; Gauntlet's percentiles after pgbench's lines only when {@code withPercentiles}. */
    public static String text(RunResult r, Setup s, List<CompiledScript> scripts, ScriptRun run,
                              boolean withPercentiles) {
        StringBuilder b = new StringBuilder();
        long total = 0;
        long failed = 0;
        long retried = 0;
        Histogram all = null;
        Histogram latencies = null;
        for (CompiledScript script : scripts) {
            Optional<OperationResult> op = r.operation(script.operation());
            if (op.isEmpty()) {
                continue;
            }
            total += op.get().count();
            failed += op.get().errors();
            retried += op.get().retries();
            all = add(all, pgbenchLatency(op.get(), s));
            latencies = add(latencies, fromIntendedStart(op.get()));
        }
        line(b, "transaction type: %s", scripts.size() == 1 ? scripts.get(0).title() : "multiple scripts");
        line(b, "scaling factor: %d", s.scale());
        line(b, "query mode: %s", s.queryMode());
        line(b, "number of clients: %d", s.clients());
        line(b, "number of threads: %d", s.threads());
        line(b, "maximum number of tries: %s", s.maxTries() == Integer.MAX_VALUE ? "unlimited" : s.maxTries());
        if (s.durationSeconds() != null) {
            line(b, "duration: %d s", s.durationSeconds());
            line(b, "number of transactions actually processed: %d", total);
        } else {
            line(b, "number of transactions per client: %d", s.transactionsPerClient());
            line(b, "number of transactions actually processed: %d/%d", total,
                    s.transactionsPerClient() * s.clients());
        }
        line(b, "number of failed transactions: %d (%.3f%%)", failed, percent(failed, total + failed));
        if (s.failuresDetailed()) {
            long serialization = failures(r, "40001");
            long deadlocks = failures(r, "40P01");
            line(b, "number of serialization failures: %d (%.3f%%)", serialization, percent(serialization, total + failed));
            line(b, "number of deadlock failures: %d (%.3f%%)", deadlocks, percent(deadlocks, total + failed));
        }
        if (s.maxTries() != 1) {
            line(b, "number of transactions retried: %d (%.3f%%)", retried, percent(retried, total + failed));
            line(b, "total number of retries: %d", retried);
        }
        if (s.latencyLimitMs() != null && all != null) {
            long late = late(all, s.latencyLimitMs());
            line(b, "number of transactions above the %.1f ms latency limit: %d/%d (%.3f%%)", s.latencyLimitMs(), late,
                    total, percent(late, total));
        }
        if (all != null) {
            line(b, "latency average = %.3f ms", all.getMean() / NANOS_PER_MS);
            if (s.throttled() || s.progress() || s.latencyLimitMs() != null) {
                line(b, "latency stddev = %.3f ms", all.getStdDeviation() / NANOS_PER_MS);
            }
        }
        Timing lag = r.observations().get(ScriptWorkload.SCHEDULE_LAG);
        if (s.throttled() && lag != null) {
            line(b, "rate limit schedule lag: avg %.3f (max %.3f) ms", lag.latencyMs().mean(), lag.latencyMs().max());
        }
        if (s.connectEach()) {
            // -C: each transaction's connecting, which the runner records as the wait for its session
            line(b, "average connection time = %.3f ms", connecting(r, scripts));
            line(b, "tps = %f (including reconnection times)", total / Math.max(r.measuredSeconds(), 1e-9));
        } else {
            line(b, "initial connection time = %.3f ms", s.initialConnectionMs());
            line(b, "tps = %f (without initial connection time)", total / Math.max(r.measuredSeconds(), 1e-9));
        }
        if (scripts.size() > 1 || s.perCommand()) {
            for (int i = 0; i < scripts.size(); i++) {
                perScript(b, r, s, scripts, i, total, run);
            }
        }
        if (withPercentiles) {
            gauntlet(b, r, s, scripts, latencies);
        }
        return b.toString();
    }

    private static void perScript(StringBuilder b, RunResult r, Setup s, List<CompiledScript> scripts, int i, long total,
                                  ScriptRun run) {
        CompiledScript script = scripts.get(i);
        int weights = scripts.stream().mapToInt(CompiledScript::weight).sum();
        OperationResult op = r.operation(script.operation()).orElse(null);
        long count = op == null ? 0 : op.count();
        long failed = op == null ? 0 : op.errors();
        line(b, "SQL script %d: %s", i + 1, script.title());
        line(b, " - weight: %d (targets %.1f%% of total)", script.weight(), percent(script.weight(), weights));
        line(b, " - %d transactions (%.1f%% of total, tps = %f)", count, percent(count, total),
                count / Math.max(r.measuredSeconds(), 1e-9));
        line(b, " - number of failed transactions: %d (%.3f%%)", failed, percent(failed, count + failed));
        Histogram h = op == null ? null : pgbenchLatency(op, s);
        if (h != null) {
            line(b, " - latency average = %.3f ms", h.getMean() / NANOS_PER_MS);
            line(b, " - latency stddev = %.3f ms", h.getStdDeviation() / NANOS_PER_MS);
        }
        if (s.perCommand()) {
            line(b, " - statement latencies in milliseconds and failed tries (the run's, priming included):");
            long[] failures = run.failures(script);
            for (int c = 0; c < script.commands().size(); c++) {
                Timing t = r.observations().get(script.commandObservation(c));
                line(b, "   %11.3f  %10d  %s", t == null ? 0.0 : t.latencyMs().mean(), failures[c],
                        script.commands().get(c));
            }
        }
    }

    /** Gauntlet's own lines: percentiles from the intended start, per script and per command. */
    private static void gauntlet(StringBuilder b, RunResult r, Setup s, List<CompiledScript> scripts, Histogram all) {
        b.append('\n');
        line(b, "Gauntlet: latency from each transaction's intended start (ms)%s:", s.throttled() ? ""
                : " (closed loop: the previous transaction's end)");
        line(b, "  %-28s %10s %8s %8s %8s %8s %9s %9s", "script", "count", "p50", "p90", "p95", "p99", "p99.9", "max");
        if (scripts.size() > 1 && all != null) {
            percentiles(b, "all", all);
        }
        for (CompiledScript script : scripts) {
            r.operation(script.operation()).map(PgbenchSummary::fromIntendedStart)
                    .ifPresent(h -> percentiles(b, script.operation(), h));
            if (s.perCommand()) {
                for (int c = 0; c < script.commands().size(); c++) {
                    Timing t = r.observations().get(script.commandObservation(c));
                    if (t != null) {
                        percentiles(b, "  " + (c + 1) + ": " + abbreviate(script.commands().get(c)),
                                HistogramCodec.decode(t.histogram()));
                    }
                }
            }
        }
    }

    private static String abbreviate(String command) {
        String one = command.replaceAll("\\s+", " ").strip();
        return one.length() <= 24 ? one : one.substring(0, 23) + "…";
    }

    private static void percentiles(StringBuilder b, String name, Histogram h) {
        line(b, "  %-28s %10d %8.3f %8.3f %8.3f %8.3f %9.3f %9.3f", name, h.getTotalCount(), ms(h, 50), ms(h, 90),
                ms(h, 95), ms(h, 99), ms(h, 99.9), h.getMaxValue() / NANOS_PER_MS);
    }

    /** The mean time to connect of the scripts' transactions, in ms. */
    private static double connecting(RunResult r, List<CompiledScript> scripts) {
        double sum = 0;
        long count = 0;
        for (CompiledScript sc : scripts) {
            OperationResult op = r.operation(sc.operation()).orElse(null);
            if (op != null && op.poolWait() != null) {
                sum += op.poolWait().latencyMs().mean() * op.poolWait().count();
                count += op.poolWait().count();
            }
        }
        return count == 0 ? 0 : sum / count;
    }

    private static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / NANOS_PER_MS;
    }

    /** pgbench's latency: from the schedule when throttled, else from each transaction's actual start. */
    private static Histogram pgbenchLatency(OperationResult op, Setup s) {
        if (s.throttled() || op.serviceTime() == null) {
            return fromIntendedStart(op);
        }
        return HistogramCodec.decode(op.serviceTime().histogram());
    }

    private static Histogram fromIntendedStart(OperationResult op) {
        return op.histogram() == null ? null : HistogramCodec.decode(op.histogram());
    }

    /** Transactions above the limit, to the histogram's precision (3 significant digits). */
    static long late(Histogram h, double limitMs) {
        long limit = (long) (limitMs * NANOS_PER_MS);
        return h.getTotalCount() - h.getCountBetweenValues(0, limit);
    }

    private static Histogram add(Histogram sum, Histogram h) {
        if (h == null) {
            return sum;
        }
        if (sum == null) {
            return h.copy();
        }
        sum.add(h);
        return sum;
    }

    /** Transactions that ended in this SQLSTATE after their last try, in the measured phase. */
    private static long failures(RunResult r, String sqlState) {
        return r.errors().stream().filter(e -> e.endedAnOperation() && sqlState.equals(e.sqlState()))
                .mapToLong(e -> e.count()).sum();
    }

    private static double percent(long part, long whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }

    private static void line(StringBuilder b, String format, Object... args) {
        b.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
