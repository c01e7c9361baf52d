package dev.gauntlet.trainevents.figures;

import dev.gauntlet.core.experiment.Experiment;
import dev.gauntlet.core.report.MarkdownTable;
import dev.gauntlet.core.report.RunGroup;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import dev.gauntlet.trainevents.workload.Lifecycle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * The matrix of variants and pool modes read the way the seed's write-up reads it: per operation, mean/p95/p99 by
 * variant (change against the first variant) and by pool mode (the client's experience against the first mode),
 * retries and errors, write amplification, wait events, CPU, and an interpretation written from these numbers.
 * Latencies of a cell with several runs come from their summed histograms.
 */
public final class MatrixReport {

    private static final List<String> ROWS = List.of(Lifecycle.ADD, Lifecycle.PROCESS, Lifecycle.ARCHIVE,
            Lifecycle.CYCLE);
    private static final List<String> STATS = List.of("mean", "p95", "p99");

    /** One cell: its variant, its pool mode, and its runs. */
    private record CellRuns(String variant, String pool, RunGroup group) {

        LatencySummary latency(String name) {
            Histogram sum = null;
            for (RunResult r : group.results()) {
                String encoded = r.operation(name).map(OperationResult::histogram)
                        .or(() -> Optional.ofNullable(r.observations().get(name)).map(Timing::histogram)).orElse(null);
                if (encoded == null) {
                    continue;
                }
                Histogram h = HistogramCodec.decode(encoded);
                if (sum == null) {
                    sum = new Histogram(h.getNumberOfSignificantValueDigits());
                }
                sum.add(h);
            }
            return sum == null ? null : LatencySummary.of(sum);
        }

        Double stat(String name, String stat) {
            LatencySummary l = latency(name);
            return l == null ? null : switch (stat) {
                case "mean" -> l.mean();
                case "p95" -> l.p95();
                default -> l.p99();
            };
        }

        /** The mean over the cell's runs of a figure each run has; null when a run lacks it. */
        Double mean(ToDoubleFunction<RunResult> figure) {
            return group.results().stream().mapToDouble(figure).average().orElse(Double.NaN);
        }

        Double metric(String name) {
            if (!group.results().stream().allMatch(r -> r.metrics().containsKey(name))) {
                return null;
            }
            return mean(r -> r.metrics().get(name));
        }
    }

    private MatrixReport() {
    }

    public static String markdown(List<RunGroup> groups) {
        List<CellRuns> cells = groups.stream().map(g -> new CellRuns(
                String.valueOf(g.first().parameters().getOrDefault(Experiment.VARIANT, "?")),
                String.valueOf(g.first().parameters().getOrDefault("pool", "?")), g)).toList();
        List<String> variants = cells.stream().map(CellRuns::variant).distinct().toList();
        List<String> pools = cells.stream().map(CellRuns::pool).distinct().toList();
        RunResult first = cells.get(0).group().first();
        StringBuilder md = new StringBuilder("# Train events: ").append(String.join(", ", variants)).append(" × ")
                .append(String.join(", ", pools)).append("\n\n");
        md.append(String.format(Locale.ROOT, "%d clients, %s measured per run, %d run(s) per cell; parameters: %s.%n%n",
                first.clients(), seconds(first.measuredSeconds()), cells.get(0).group().size(), shape(first,
                        cells.stream().map(c -> c.group().first().parameters().get("poolSize"))
                                .filter(Objects::nonNull).findFirst().orElse("—"))));

        md.append("## Cycles and events per second\n\n");
        MarkdownTable tput = new MarkdownTable().left("Variant").right(pools.stream()
                .flatMap(p -> List.of(p + " events/s", p + " cycle mean (ms)").stream()).toArray(String[]::new));
        for (String v : variants) {
            List<String> row = new ArrayList<>(List.of(v));
            for (String p : pools) {
                Optional<CellRuns> c = cell(cells, v, p);
                row.add(c.map(x -> number(x.metric(LifecycleFigures.ADDED_PER_SECOND))).orElse("—"));
                row.add(c.map(x -> number(x.stat(Lifecycle.CYCLE, "mean"))).orElse("—"));
            }
            tput.row(row.toArray(String[]::new));
        }
        md.append(tput.render()).append('\n');

        if (variants.size() > 1) {
            md.append("## By variant (change against ").append(variants.get(0)).append(")\n\n");
            for (String p : pools) {
                md.append("Pool mode `").append(p).append("`, latency in ms:\n\n");
                md.append(compare(cells, variants, v -> cell(cells, v, p), "change")).append('\n');
            }
        }
        if (pools.size() > 1) {
            md.append("## By pool mode (client experience against ").append(pools.get(0)).append(")\n\n");
            for (String v : variants) {
                md.append("Variant `").append(v).append("`, latency in ms (from each operation's intended start, "
                        + "pool wait included):\n\n");
                md.append(compare(cells, pools, p -> cell(cells, v, p), "client experience")).append('\n');
            }
        }

        md.append("## Retries, errors, pool wait\n\n");
        MarkdownTable errors = new MarkdownTable().left("Cell").right("Retries", "Errors", "Pool wait p99 (ms)",
                "Empty claims");
        for (CellRuns c : cells) {
            errors.row(c.group().label(), number(c.mean(r -> r.totalRetries())), number(c.mean(r -> r.totalErrors())),
                    number(poolWaitP99(c)), number(c.mean(r -> r.operation(Lifecycle.PROCESS)
                            .map(o -> (double) o.counter("emptyClaims")).orElse(0.0))));
        }
        md.append(errors.render()).append('\n');

        md.append("## Write amplification and storage\n\n");
        MarkdownTable storage = new MarkdownTable().left("Cell").right("WAL bytes/event", "events heap MiB",
                "events TOAST MiB", "events index MiB", "archive bytes/event");
        for (CellRuns c : cells) {
            storage.row(c.group().label(), number(c.metric(LifecycleFigures.WAL_PER_EVENT)),
                    number(c.metric("size.eventsHeapMiB")), number(c.metric("size.eventsToastMiB")),
                    number(c.metric("size.eventsIndexMiB")), number(c.metric("size.archiveBytesPerEvent")));
        }
        md.append(storage.render()).append('\n');

        md.append("## What the server's sessions waited on\n\n"
                + "Sampled from pg_stat_activity ten times a second; share of active-session samples (CPU: active, "
                + "waiting on nothing).\n\n");
        MarkdownTable waits = new MarkdownTable().left("Cell").right("Active sessions").left("Top waits");
        for (CellRuns c : cells) {
            waits.row(c.group().label(), number(c.metric(LifecycleFigures.ACTIVE_SESSIONS)), topWaits(c));
        }
        md.append(waits.render()).append('\n');

        md.append("## CPU per cycle\n\n");
        MarkdownTable cpu = new MarkdownTable().left("Cell").right("Driver ms/cycle", "Server ms/cycle",
                "Driver % of both", "Driver cores");
        for (CellRuns c : cells) {
            cpu.row(c.group().label(), number(c.metric(LifecycleFigures.DRIVER_CPU)),
                    number(c.metric(LifecycleFigures.SERVER_CPU)), number(c.metric("cpu.driverPercentOfBoth")),
                    number(c.metric("cpu.driverCores")));
        }
        md.append(cpu.render()).append('\n');

        md.append("## Interpretation\n\n").append(interpretation(cells, variants, pools));
        return md.toString();
    }

    /** Rows operation × statistic, a column per side and a change column for every side after the first. */
    private static String compare(List<CellRuns> cells, List<String> sides,
                                  java.util.function.Function<String, Optional<CellRuns>> cellOf, String changeName) {
        MarkdownTable t = new MarkdownTable().left("Operation", "Stat");
        List<String> headers = new ArrayList<>();
        for (int i = 0; i < sides.size(); i++) {
            headers.add(sides.get(i));
            if (i > 0) {
                headers.add(changeName);
            }
        }
        t.right(headers.toArray(String[]::new));
        for (String op : ROWS) {
            for (String stat : STATS) {
                List<String> row = new ArrayList<>(List.of(op, stat));
                Double base = cellOf.apply(sides.get(0)).map(c -> c.stat(op, stat)).orElse(null);
                for (int i = 0; i < sides.size(); i++) {
                    Double v = cellOf.apply(sides.get(i)).map(c -> c.stat(op, stat)).orElse(null);
                    row.add(number(v));
                    if (i > 0) {
                        row.add(change(base, v));
                    }
                }
                t.row(row.toArray(String[]::new));
            }
        }
        return t.render();
    }

    private static String interpretation(List<CellRuns> cells, List<String> variants, List<String> pools) {
        StringBuilder s = new StringBuilder();
        boolean repeated = cells.stream().allMatch(c -> c.group().size() > 1);
        if (variants.size() > 1) {
            for (String p : pools) {
                List<CellRuns> row = variants.stream().map(v -> cell(cells, v, p)).flatMap(Optional::stream).toList();
                CellRuns fastestCycle = best(row, c -> c.stat(Lifecycle.CYCLE, "mean"));
                CellRuns slowestAdd = worst(row, c -> c.stat(Lifecycle.ADD, "mean"));
                CellRuns fastestAdd = best(row, c -> c.stat(Lifecycle.ADD, "mean"));
                if (fastestCycle == null || slowestAdd == null || fastestAdd == null) {
                    continue;
                }
                s.append("- **").append(p).append(":** ").append(fastestCycle.variant())
                        .append(" has the shortest cycle (mean ").append(number(fastestCycle.stat(Lifecycle.CYCLE, "mean")))
                        .append(" ms, ").append(comparison(fastestCycle, row, Lifecycle.CYCLE)).append("). Adding is ")
                        .append(slowestAdd.variant().equals("jsonb") ? "slowest with jsonb" : "slowest with "
                                + slowestAdd.variant()).append(" (mean ")
                        .append(number(slowestAdd.stat(Lifecycle.ADD, "mean"))).append(" ms against ")
                        .append(number(fastestAdd.stat(Lifecycle.ADD, "mean"))).append(" ms with ")
                        .append(fastestAdd.variant()).append(", ")
                        .append(change(fastestAdd.stat(Lifecycle.ADD, "mean"), slowestAdd.stat(Lifecycle.ADD, "mean")))
                        .append(")");
                CellRuns jsonb = row.stream().filter(c -> c.variant().equals("jsonb")).findFirst().orElse(null);
                if (jsonb != null) {
                    Double wal = jsonb.metric(LifecycleFigures.WAL_PER_EVENT);
                    CellRuns leastWal = best(row, c -> c.metric(LifecycleFigures.WAL_PER_EVENT));
                    if (wal != null && leastWal != null && leastWal != jsonb) {
                        s.append("; jsonb writes ").append(number(wal)).append(" WAL bytes per event against ")
                                .append(number(leastWal.metric(LifecycleFigures.WAL_PER_EVENT))).append(" with ")
                                .append(leastWal.variant());
                    }
                }
                s.append(".\n");
            }
            s.append("- The seed's claim, \"JSONB with an inverted index is slowest on writes\": ")
                    .append(claimJsonbSlowest(cells, pools)).append('\n');
        }
        if (pools.size() > 1) {
            String base = pools.get(0);
            for (String p : pools.subList(1, pools.size())) {
                List<String> changes = new ArrayList<>();
                for (String v : variants) {
                    Optional<CellRuns> a = cell(cells, v, base);
                    Optional<CellRuns> b = cell(cells, v, p);
                    if (a.isPresent() && b.isPresent()) {
                        changes.add(v + " " + change(a.get().stat(Lifecycle.CYCLE, "mean"),
                                b.get().stat(Lifecycle.CYCLE, "mean")) + " (p99 "
                                + change(a.get().stat(Lifecycle.CYCLE, "p99"), b.get().stat(Lifecycle.CYCLE, "p99")) + ")");
                    }
                }
                s.append("- **").append(p).append(" against ").append(base).append(":** cycle mean ")
                        .append(String.join(", ", changes)).append(".\n");
            }
            s.append("- The seed's claim, \"transaction pooling cuts client latency 40-90% under high concurrency\": ")
                    .append(claimPooling(cells, variants, pools)).append('\n');
        }
        s.append("- ").append(repeated ? "Each cell ran several times: the rankings above come from the pooled "
                + "figures; the pairwise comparisons below say which differences their 95% intervals show, which "
                + "figures are Equal and which are inconclusive." : "Each cell ran once, so no figure has a "
                + "confidence interval: the rankings and claims above describe these runs and are not shown to hold "
                + "beyond them (the pairwise comparisons below call every figure inconclusive); repeat with "
                + "--repeat N for confidence intervals.").append('\n');
        return s.toString();
    }

    private static String claimJsonbSlowest(List<CellRuns> cells, List<String> pools) {
        List<String> holds = new ArrayList<>();
        List<String> fails = new ArrayList<>();
        for (String p : pools) {
            List<CellRuns> row = cells.stream().filter(c -> c.pool().equals(p)).toList();
            CellRuns slowest = worst(row, c -> c.stat(Lifecycle.ADD, "mean"));
            if (slowest == null || row.stream().noneMatch(c -> c.variant().equals("jsonb"))) {
                continue;
            }
            (slowest.variant().equals("jsonb") ? holds : fails).add(p);
        }
        if (holds.isEmpty() && fails.isEmpty()) {
            return "not tested (jsonb was not in the matrix).";
        }
        if (fails.isEmpty()) {
            return "holds here: jsonb's add is the slowest in every pool mode.";
        }
        return holds.isEmpty() ? "does not hold here: jsonb's add is not the slowest in any pool mode."
                : "holds with " + String.join(", ", holds) + ", not with " + String.join(", ", fails) + ".";
    }

    private static String claimPooling(List<CellRuns> cells, List<String> variants, List<String> pools) {
        if (!pools.contains("direct")) {
            return "not tested (direct was not in the matrix).";
        }
        List<String> out = new ArrayList<>();
        for (String p : pools) {
            if (p.equals("direct")) {
                continue;
            }
            String least = null;
            String most = null;
            double min = Double.MAX_VALUE;
            double max = -Double.MAX_VALUE;
            for (String v : variants) {
                Optional<CellRuns> a = cell(cells, v, "direct");
                Optional<CellRuns> b = cell(cells, v, p);
                if (a.isPresent() && b.isPresent()) {
                    Double x = a.get().stat(Lifecycle.CYCLE, "mean");
                    Double y = b.get().stat(Lifecycle.CYCLE, "mean");
                    if (x != null && y != null && x > 0) {
                        double cut = 100 * (x - y) / x;
                        if (cut < min) {
                            min = cut;
                            least = v;
                        }
                        if (cut > max) {
                            max = cut;
                            most = v;
                        }
                    }
                }
            }
            if (least == null) {
                continue;
            }
            String range = least.equals(most) ? cut(min) + " (" + least + ")"
                    : "from " + cut(min) + " (" + least + ") to " + cut(max) + " (" + most + ")";
            out.add(p + " changes the mean cycle " + range + (min >= 40 ? ": holds" : max < 0
                    ? ": the opposite, it is slower" : max < 40 ? ": less than the seed claims"
                    : ": holds for some variants only"));
        }
        return out.isEmpty() ? "not tested." : String.join("; ", out) + ", at "
                + cells.get(0).group().first().clients() + " clients.";
    }

    /** A cut in latency in words: "42% faster", or "16% slower" for a negative cut. */
    private static String cut(double percent) {
        return String.format(Locale.ROOT, "%.0f%% %s", Math.abs(percent), percent >= 0 ? "faster" : "slower");
    }

    private static String comparison(CellRuns winner, List<CellRuns> row, String op) {
        List<String> parts = new ArrayList<>();
        for (CellRuns c : row) {
            if (c != winner) {
                parts.add(change(c.stat(op, "mean"), winner.stat(op, "mean")) + " against " + c.variant());
            }
        }
        return String.join(", ", parts);
    }

    private static Optional<CellRuns> cell(List<CellRuns> cells, String variant, String pool) {
        return cells.stream().filter(c -> c.variant().equals(variant) && c.pool().equals(pool)).findFirst();
    }

    private static CellRuns best(List<CellRuns> row, java.util.function.Function<CellRuns, Double> f) {
        return row.stream().filter(c -> f.apply(c) != null).min(java.util.Comparator.comparing(f)).orElse(null);
    }

    private static CellRuns worst(List<CellRuns> row, java.util.function.Function<CellRuns, Double> f) {
        return row.stream().filter(c -> f.apply(c) != null).max(java.util.Comparator.comparing(f)).orElse(null);
    }

    /** The worst operation's pool-wait p99; null where the driver borrows no connections (direct, PgBouncer). */
    private static Double poolWaitP99(CellRuns c) {
        boolean pooled = c.group().results().stream().flatMap(r -> r.operations().stream())
                .anyMatch(o -> o.poolWait() != null);
        return !pooled ? null : c.mean(r -> r.operations().stream().map(OperationResult::poolWait)
                .filter(Objects::nonNull).mapToDouble(t -> t.latencyMs().p99()).max().orElse(0));
    }

    private static String topWaits(CellRuns c) {
        Map<String, Double> shares = new LinkedHashMap<>();
        for (String name : c.group().first().metrics().keySet()) {
            if (name.startsWith(LifecycleFigures.WAITS) && name.endsWith("Percent")) {
                Double v = c.metric(name);
                if (v != null) {
                    shares.put(name.substring(LifecycleFigures.WAITS.length(), name.length() - "Percent".length()), v);
                }
            }
        }
        return shares.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(4)
                .map(e -> String.format(Locale.ROOT, "%s %.0f%%", e.getKey(), e.getValue()))
                .reduce((a, b) -> a + ", " + b).orElse("—");
    }

    /** "42% faster" when {@code value} is lower than {@code base}, "13% slower" when higher. */
    private static String change(Double base, Double value) {
        if (base == null || value == null || base == 0) {
            return "—";
        }
        double pct = 100 * (value - base) / base;
        if (Math.abs(pct) < 0.5) {
            return "same";
        }
        return String.format(Locale.ROOT, "%.0f%% %s", Math.abs(pct), pct < 0 ? "faster" : "slower");
    }

    private static String number(Double v) {
        if (v == null || v.isNaN()) {
            return "—";
        }
        double a = Math.abs(v);
        if (v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, a >= 100 ? "%,.0f" : a >= 10 ? "%.1f" : "%.2f", v);
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.0f s", s);
    }

    private static String shape(RunResult r, Object poolSize) {
        Map<String, Object> p = r.parameters();
        return String.format(Locale.ROOT, "batch %s-%s, delay %s, lock hold %s, %s%% FAILED, %s seeded events, "
                        + "pool size %s", p.get("minBatch"), p.get("maxBatch"), p.get("delay"), p.get("lockHold"),
                p.get("failPercent"), p.get("seedEvents"), poolSize);
    }
}
