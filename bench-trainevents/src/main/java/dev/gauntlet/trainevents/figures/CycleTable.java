package dev.gauntlet.trainevents.figures;

import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.trainevents.workload.Lifecycle;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The table dbworkload users read, for add, process, archive and the cycle: {@code elapsed | id | threads | tot_ops |
 * tot_ops/s | mean(ms) | p50(ms) | p90(ms) | p95(ms) | p99(ms) | max(ms)}, with rates by real division (dbworkload
 * divides integers, so a slow workload shows 0 ops/s). {@code __cycle__} is dbworkload's cycle, the delay before it
 * included; {@code cycle} is the three transactions alone. Printed at every interval while the run goes (with
 * {@code period_ops} and {@code period_ops/s}, dbworkload's periodic columns) and once for the measured phase.
 */
public final class CycleTable implements RunListener {

    private static final String[] IDS = {"__cycle__", Lifecycle.CYCLE, Lifecycle.ADD, Lifecycle.PROCESS,
            Lifecycle.ARCHIVE};

    private final PrintStream out;
    private final int threads;
    private final Map<String, Histogram> cumulative = new HashMap<>();

    public CycleTable(PrintStream out, int threads) {
        this.out = out;
        this.threads = threads;
    }

    /** One row's figures. */
    private record Row(String id, long ops, double seconds, long periodOps, double periodSeconds, LatencySummary ms) {
    }

    @Override
    public void onInterval(Interval interval, Map<String, Long> cumulativeCounts, double phaseSeconds) {
        List<Row> rows = new ArrayList<>();
        for (String id : IDS) {
            String histogram = histogramOf(interval, id);
            if (histogram == null) {
                continue;
            }
            Histogram h = HistogramCodec.decode(histogram);
            Histogram total = cumulative.computeIfAbsent(id, k -> new Histogram(h.getNumberOfSignificantValueDigits()));
            total.add(h);
            rows.add(new Row(id, total.getTotalCount(), phaseSeconds, h.getTotalCount(), interval.seconds(),
                    LatencySummary.of(total)));
        }
        if (!rows.isEmpty()) {
            out.print(render(interval.t(), rows, true, threads));
            out.flush();
        }
    }

    private static String histogramOf(Interval interval, String id) {
        if (id.equals("__cycle__") || id.equals(Lifecycle.CYCLE)) {
            Timing t = interval.observations().get(id.equals("__cycle__") ? Lifecycle.CYCLE_WITH_DELAY : id);
            return t == null ? null : t.histogram();
        }
        IntervalOperation op = interval.operations().get(id);
        return op == null || op.count() == 0 ? null : op.histogram();
    }

    @Override
    public void onPhaseEnd(Phase phase) {
        if (phase.name().equals(Phase.WARMUP)) {
            cumulative.clear();
            out.printf(Locale.ROOT, "-- warm-up ended at %.1fs; measuring from here (tot_ops restart)%n",
                    phase.endSeconds());
        }
    }

    /** The measured phase's table, from a result alone. */
    public static String of(RunResult r) {
        List<Row> rows = new ArrayList<>();
        double s = r.measuredSeconds();
        for (String id : IDS) {
            if (id.equals("__cycle__") || id.equals(Lifecycle.CYCLE)) {
                Timing t = r.observations().get(id.equals("__cycle__") ? Lifecycle.CYCLE_WITH_DELAY : id);
                if (t != null) {
                    rows.add(new Row(id, t.count(), s, 0, 0, t.latencyMs()));
                }
            } else {
                r.operation(id).ifPresent(op -> rows.add(new Row(id, op.count(), s, 0, 0, op.latencyMs())));
            }
        }
        return render(s, rows, false, r.clients());
    }

    private static String render(double elapsed, List<Row> rows, boolean periodic, int threads) {
        List<String> header = new ArrayList<>(List.of("elapsed", "id", "threads", "tot_ops", "tot_ops/s"));
        if (periodic) {
            header.addAll(List.of("period_ops", "period_ops/s"));
        }
        header.addAll(List.of("mean(ms)", "p50(ms)", "p90(ms)", "p95(ms)", "p99(ms)", "max(ms)"));
        List<String[]> cells = new ArrayList<>();
        for (Row row : rows) {
            List<String> c = new ArrayList<>(List.of(String.format(Locale.ROOT, "%,.0f", elapsed), row.id(),
                    String.valueOf(threads), String.format(Locale.ROOT, "%,d", row.ops()),
                    String.format(Locale.ROOT, "%,.2f", row.seconds() > 0 ? row.ops() / row.seconds() : 0)));
            if (periodic) {
                c.add(String.format(Locale.ROOT, "%,d", row.periodOps()));
                c.add(String.format(Locale.ROOT, "%,.2f", row.periodSeconds() > 0 ? row.periodOps() / row.periodSeconds() : 0));
            }
            LatencySummary ms = row.ms();
            for (double v : new double[] {ms.mean(), ms.p50(), ms.p90(), ms.p95(), ms.p99(), ms.max()}) {
                c.add(String.format(Locale.ROOT, "%,.2f", v));
            }
            cells.add(c.toArray(String[]::new));
        }
        int[] width = new int[header.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = header.get(i).length();
            for (String[] c : cells) {
                width[i] = Math.max(width[i], c[i].length());
            }
        }
        StringBuilder t = new StringBuilder();
        t.append(border('┌', '┬', '┐', width));
        t.append(line(header.toArray(String[]::new), width));
        t.append(border('├', '┼', '┤', width));
        for (String[] c : cells) {
            t.append(line(c, width));
        }
        t.append(border('└', '┴', '┘', width));
        return t.toString();
    }

    private static String border(char left, char mid, char right, int[] width) {
        StringBuilder b = new StringBuilder().append(left);
        for (int i = 0; i < width.length; i++) {
            b.append("─".repeat(width[i] + 2)).append(i == width.length - 1 ? right : mid);
        }
        return b.append('\n').toString();
    }

    private static String line(String[] cells, int[] width) {
        StringBuilder b = new StringBuilder("│");
        for (int i = 0; i < cells.length; i++) {
            String fmt = i == 1 ? " %-" + width[i] + "s │" : " %" + width[i] + "s │";
            b.append(String.format(Locale.ROOT, fmt, cells[i]));
        }
        return b.append('\n').toString();
    }
}
