package dev.gauntlet.core.report;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.Environment;
import dev.gauntlet.core.result.ErrorCount;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RecoveredRun;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Saturation;
import dev.gauntlet.core.result.Timing;
import dev.gauntlet.core.result.Tool;
import dev.gauntlet.core.result.Redaction;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The report of one run: {@code report.md} plus the timeline charts it links to, rendered from the
 * {@link RunResult} alone so an old run can be re-rendered without its database. Every figure sits beside the
 * command, tool version and environment that produced it.
 */
public final class RunReport {

    /** The Markdown file name inside a run directory. */
    public static final String MARKDOWN = "report.md";

    private static final int EXAMPLE_LENGTH = 160;
    private static final List<String> LATENCY_HEADERS = List.of("mean", "p50", "p90", "p95", "p99", "max");

    private final RunResult run;
    private final StringBuilder md = new StringBuilder();

    private RunReport(RunResult run) {
        this.run = run;
    }

    /**
     * The parameter holding a workload's notes on how its figures are measured (a list of sentences), each printed as
     * a line under the title: where a peer tool's reader would read the same words differently.
     */
    public static final String NOTES = "notes";

    /** Adds {@code note} to the notes in a run's {@code parameters} (after the workload's own). */
    public static void addNote(Map<String, Object> parameters, String note) {
        List<Object> notes = new ArrayList<>(parameters.get(NOTES) instanceof List<?> l ? l : List.of());
        notes.add(note);
        parameters.put(NOTES, notes);
    }

    /** The Markdown of the report; chart links are included only for charts the run has data for. */
    public static String markdown(RunResult run) {
        return markdown(run, TimelineCharts.names(run));
    }

    /** report.md and the charts, in memory, ready to be written together. */
    public static FileSet files(RunResult run) {
        Map<String, byte[]> charts = TimelineCharts.render(run);
        FileSet files = new FileSet().addText(MARKDOWN, markdown(run, charts.keySet()));
        charts.forEach(files::add);
        return files;
    }

    /** Writes report.md and the charts into {@code dir}, all or nothing. */
    public static void write(RunResult run, Path dir) throws IOException {
        files(run).writeInto(dir);
    }

    static String markdown(RunResult run, java.util.Set<String> charts) {
        RunReport r = new RunReport(run);
        r.title();
        r.md.append(ObjectiveTable.markdown(run));
        r.provenance();
        r.parameters();
        r.phases();
        r.disruptions();
        r.operations();
        r.roles();
        r.timing("Service time", "Service time is measured from each operation's actual start, after any wait "
                + "for its scheduled turn; compare it with the latency above to see how long operations queued.",
                OperationResult::serviceTime);
        r.timing("Pool wait", "Time each operation spent waiting for a pooled connection (failed borrows "
                + "included); it is part of the latency above.", OperationResult::poolWait);
        r.timing("Failed operations", "Operations that ended in failure after their last attempt (a timeout, a lost "
                + "connection, a fatal error), from their intended start to the failure. They are not in the latency "
                + "above, which counts committed operations; under overload this is often where the worst tail is.",
                OperationResult::failed);
        r.unissued();
        r.observations();
        r.transients();
        r.counters();
        r.metrics();
        r.timeline(charts);
        r.errors();
        r.checks();
        return r.md.toString();
    }

    private void title() {
        String workload = Figures.orDash(run.workload());
        md.append("# ").append(workload);
        if (run.variant() != null && !run.variant().isBlank()) {
            md.append(" — ").append(run.variant());
        }
        md.append("\n\n");
        md.append(Figures.seconds(run.measuredSeconds())).append(" measured of workload `").append(workload)
                .append('`');
        if (run.variant() != null && !run.variant().isBlank()) {
            md.append(", variant `").append(run.variant()).append('`');
        }
        md.append(", ").append(run.clients()).append(run.clients() == 1 ? " client" : " clients");
        if (run.environment() != null && run.environment().database() != null) {
            md.append(", on ").append(run.environment().database());
        }
        md.append(".\n\n");
        if (run.parameters().get(NOTES) instanceof java.util.List<?> notes) {
            notes.forEach(n -> md.append("**Note:** ").append(n).append(".\n\n"));
        }
        Object incomplete = run.parameters().get(RecoveredRun.INCOMPLETE);
        if (incomplete != null) {
            md.append("**Incomplete:** ").append(incomplete).append(".\n\n");
        }
    }

    private void provenance() {
        md.append("## What ran, where, when\n\n");
        Environment env = run.environment();
        MarkdownTable t = new MarkdownTable().left("Item", "Value")
                .row("Tool", tool(run.tool()))
                .row("Started", Figures.orDash(run.startedAt()))
                .row("Ended", Figures.orDash(run.endedAt()))
                .row("Measured", Figures.seconds(run.measuredSeconds()))
                .row("Clients", String.valueOf(run.clients()));
        if (env != null) {
            t.row("JVM", Figures.orDash(env.jvm()))
                    .row("OS", Figures.orDash(env.os()))
                    .row("CPUs", String.valueOf(env.cpus()))
                    .row("JVM max heap", env.maxHeapBytes() > 0 ? Figures.mebibytes(env.maxHeapBytes()) : "—")
                    .row("Host", Figures.orDash(env.host()))
                    .row("Database", Figures.orDash(env.database()))
                    .row("Database URL", Figures.orDash(Redaction.url(env.databaseUrl())));
        }
        md.append(t.render()).append('\n');
        if (run.command() != null && !run.command().isBlank()) {
            String fence = run.command().contains("```") ? "~~~" : "```";
            md.append("Command:\n\n").append(fence).append('\n').append(Redaction.url(run.command()))
                    .append('\n').append(fence).append("\n\n");
        }
    }

    private static String tool(Tool tool) {
        return tool == null ? "—" : Figures.orDash(tool.name()) + " " + Figures.orDash(tool.version()) + " (commit "
                + Figures.orDash(tool.gitCommit()) + ")";
    }

    private void parameters() {
        if (run.parameters().isEmpty()) {
            return;
        }
        md.append("## Parameters\n\n");
        MarkdownTable t = new MarkdownTable().left("Parameter", "Value");
        // Sorted: the stored map has no order, and a stable report diffs cleanly between runs.
        new TreeMap<>(run.parameters()).forEach((k, v) -> {
            if (!k.equals(NOTES)) {
                t.row(k, Figures.orDash(v));
            }
        });
        md.append(t.render()).append('\n');
    }

    private void phases() {
        if (run.phases().isEmpty()) {
            return;
        }
        md.append("## Phases\n\n");
        List<PhaseSummary> summaries = PhaseSummary.of(run);
        // Failures and unavailability are shown when something went wrong in some phase (a run through faults).
        boolean adverse = !run.disruptions().isEmpty() || summaries.stream()
                .anyMatch(p -> !p.failures().isEmpty() || p.unavailableSeconds() > 0);
        MarkdownTable t = new MarkdownTable().left("Phase").right("Start", "End", "Length").left("Measured");
        if (adverse) {
            t.right("Unavailable").left("Failures");
        }
        for (PhaseSummary s : summaries) {
            Phase p = s.phase();
            List<String> cells = new ArrayList<>(List.of(p.name(), Figures.seconds(p.startSeconds()),
                    Figures.seconds(p.endSeconds()), Figures.seconds(p.endSeconds() - p.startSeconds()),
                    p.isMeasured() ? "yes" : "no"));
            if (adverse) {
                cells.add(Figures.seconds(s.unavailableSeconds()));
                cells.add(s.failures().isEmpty() ? "-" : s.failures().entrySet().stream()
                        .map(e -> e.getKey() + " " + Figures.count(e.getValue()))
                        .collect(java.util.stream.Collectors.joining(", ")));
            }
            t.row(cells.toArray(String[]::new));
        }
        md.append(t.render()).append('\n');
        if (adverse) {
            md.append("Unavailable: seconds of intervals in which nothing committed. Failures by class: failed "
                    + "operations (connection, ambiguous-commit, timeout...), retried attempts and failed reconnect "
                    + "attempts.\n\n");
        }
        boolean p90 = run.phases().stream().flatMap(p -> p.operations().values().stream())
                .allMatch(f -> f.p90() != null);
        MarkdownTable perOp = new MarkdownTable().left("Phase", "op").right("ops", "ops/s", "errors", "p50");
        if (p90) {
            perOp.right("p90");
        }
        perOp.right("p95", "p99", "max");
        for (Phase p : run.phases()) {
            p.operations().forEach((op, f) -> {
                List<String> cells = new ArrayList<>(List.of(p.name(), op, Figures.count(f.count()),
                        Figures.rate(f.opsPerSecond()), Figures.count(f.errors()), Figures.ms(f.p50())));
                if (p90) {
                    cells.add(Figures.ms(f.p90()));
                }
                cells.addAll(List.of(Figures.ms(f.p95()), Figures.ms(f.p99()), Figures.ms(f.max())));
                perOp.row(cells.toArray(String[]::new));
            });
        }
        if (run.phases().size() > 1 && !perOp.isEmpty()) {
            md.append("Per phase, from each phase's summed histograms (latency from intended start, ms):\n\n")
                    .append(perOp.render()).append('\n');
        }
    }

    /**
     * What each planned disruption did, and whether the workload was back to its baseline after it (and how long
     * after its end); no section for a run without disruptions.
     */
    private void disruptions() {
        if (run.disruptions().isEmpty()) {
            return;
        }
        md.append("## Disruptions\n\n").append(DisruptionTable.EXPLAINED).append("\n\n")
                .append(DisruptionTable.of(run).render()).append('\n');
    }

    private void operations() {
        md.append("## Operations\n\n");
        if (run.operations().isEmpty()) {
            md.append("No operation completed.\n\n");
            return;
        }
        md.append("Latency is measured from each operation's intended start, so time spent queued behind a slow "
                + "database counts; service time from its actual start. Latencies in ms; percentiles come from "
                + "HdrHistograms (3 significant digits), summed across operations for the (all) row, never "
                + "averaged.\n\n");
        MarkdownTable t = new MarkdownTable().right("elapsed").left("op").right("clients", "ops", "ops/s")
                .right(LATENCY_HEADERS.toArray(String[]::new));
        String elapsed = Figures.seconds(run.measuredSeconds());
        String clients = String.valueOf(run.clients());
        for (OperationResult op : run.operations()) {
            List<String> cells = new ArrayList<>(List.of(elapsed, op.name(), clients, Figures.count(op.count()),
                    Figures.rate(RunTotals.opsPerSecond(run, op))));
            cells.addAll(Figures.latencyCells(RunTotals.latency(op)));
            t.row(cells);
        }
        if (run.operations().size() > 1) {
            RunTotals all = RunTotals.of(run);
            List<String> cells = new ArrayList<>(List.of(elapsed, "(all)", clients, Figures.count(all.count()),
                    Figures.rate(all.opsPerSecond())));
            cells.addAll(Figures.latencyCells(all.latencyMs()));
            t.row(cells);
        }
        md.append(t.render()).append('\n');
    }

    /** Each kind of client's pacing and what it issued, when there are several or one ran open loop. */
    private void roles() {
        if (run.roles().isEmpty() || run.roles().size() == 1 && !run.roles().get(0).openLoop()) {
            return;
        }
        MarkdownTable t = new MarkdownTable().left("role").right("clients").left("pacing")
                .right("issued", "issued/s", "unissued");
        for (dev.gauntlet.core.result.RoleResult role : run.roles()) {
            String pacing = role.openLoop() ? "open loop at " + Figures.rate(role.rate()) + " ops/s" : "closed loop";
            if (role.after() != null) {
                pacing += role.startedAt() == null ? ", never started: " + role.after() + " never became ready"
                        : String.format(Locale.ROOT, ", from %.2f s, once %s were ready", role.startedAt(), role.after());
            }
            t.row(role.name(), String.valueOf(role.clients()), pacing,
                    Figures.count(role.issued()), Figures.rate(role.issuedPerSecond()), Figures.count(role.unissued()));
        }
        md.append("### Roles\n\nIssued operations ran to an end (committed or failed) in the measured phase; an "
                + "open-loop role that issues less than its rate is saturated.\n\n").append(t.render()).append('\n');
    }

    /** Service time and pool wait share one shape: a latency table over the operations that recorded it. */
    private void timing(String title, String explanation, Function<OperationResult, Timing> timing) {
        MarkdownTable t = new MarkdownTable().left("op").right("ops").right(LATENCY_HEADERS.toArray(String[]::new));
        for (OperationResult op : run.operations()) {
            Timing tm = timing.apply(op);
            if (tm != null && tm.latencyMs() != null) {
                List<String> cells = new ArrayList<>(List.of(op.name(), Figures.count(tm.count())));
                cells.addAll(Figures.latencyCells(tm.latencyMs()));
                t.row(cells);
            }
        }
        if (!t.isEmpty()) {
            md.append("### ").append(title).append("\n\n").append(explanation).append(" Milliseconds.\n\n")
                    .append(t.render()).append('\n');
        }
    }

    /** Operations due before the end that never ran: their count, the least they waited, and a saturation warning. */
    private void unissued() {
        Saturation.of(run).filter(Saturation::saturated).ifPresent(sat -> md.append("> **Saturated:** ")
                .append(sat.warning().replaceFirst("^saturated: ", "")).append(". Asking more of the system than it "
                        + "can do builds a queue the run's end cuts off: the lower bound below is the least those "
                        + "operations would have waited.\n\n"));
        timing("Unissued operations (lower bound)", "Operations that were due before the run ended but never ran to "
                + "completion (every client was busy, or waiting for a retry or a reconnect). Each waited at least from "
                + "its intended start to the end of the run; these are those lower bounds. Read them together with the "
                + "latency above: the true distribution lies at or above both.", OperationResult::unissuedLowerBound);
    }

    /** Operations and observations whose first measured intervals are a start-up transient, beside the whole run. */
    private void transients() {
        List<Transient> found = Transient.of(run);
        if (found.isEmpty()) {
            return;
        }
        MarkdownTable t = new MarkdownTable().left("latency").right("first", "intervals", "p50 whole run",
                "p50 after it", "p99 whole run", "p99 after it", "mean whole run", "mean after it").left("rule");
        for (Transient tr : found) {
            t.row(tr.timing(), Figures.seconds(tr.seconds()), tr.intervals() + " of " + tr.of(),
                    Figures.ms(tr.whole().p50()), Figures.ms(tr.steady().p50()), Figures.ms(tr.whole().p99()),
                    Figures.ms(tr.steady().p99()), Figures.ms(tr.whole().mean()), Figures.ms(tr.steady().mean()),
                    tr.rule());
        }
        md.append("### Start-up transient\n\nThe first measured intervals of these latencies are unlike the rest of "
                + "the run (MSER truncation over the intervals' mean latencies, kept only when the cut part lies "
                + "beyond three standard deviations and 10% of the rest). The tables above are the whole run, as "
                + "measured; these columns show what it settled to. A `--warmup` as long as the transient leaves it "
                + "out of the results.\n\n").append(t.render()).append('\n');
    }

    /** What operations observed themselves: latencies such as end to end, and gauges such as lag. */
    private void observations() {
        if (!run.observations().isEmpty()) {
            MarkdownTable t = new MarkdownTable().left("observation").right("count")
                    .right(LATENCY_HEADERS.toArray(String[]::new));
            run.observations().forEach((name, timing) -> {
                List<String> cells = new ArrayList<>(List.of(name, Figures.count(timing.count())));
                cells.addAll(Figures.latencyCells(timing.latencyMs()));
                t.row(cells);
            });
            md.append("### Observed latencies\n\nLatencies the operations observed in their data, recorded when the "
                    + "operation that saw them committed (e.g. end to end: from the timestamp a producer wrote, on the "
                    + "driver's clock, to the commit of the read that consumed it). Milliseconds.\n\n")
                    .append(t.render()).append('\n');
        }
        if (!run.gauges().isEmpty()) {
            MarkdownTable t = new MarkdownTable().left("gauge").right("last", "min", "max");
            run.gauges().forEach((name, g) -> t.row(name, Figures.count(g.last()), Figures.count(g.min()),
                    Figures.count(g.max())));
            md.append("### Gauges\n\nValues the operations and the gauge probes reported, read at the end of each measured interval.\n\n")
                    .append(t.render()).append('\n');
        }
    }

    private void counters() {
        MarkdownTable t = new MarkdownTable().left("Operation").left("Counter").right("Count").right("Per operation");
        for (OperationResult op : run.operations()) {
            op.counters().forEach((name, value) -> t.row(op.name(), name, Figures.count(value),
                    op.count() == 0 ? "—" : Figures.metric((double) value / op.count())));
        }
        if (!t.isEmpty()) {
            md.append("### Counted by the operations\n\nWhat committed operations of the measured phase reported "
                    + "doing, beyond committing.\n\n").append(t.render()).append('\n');
        }
    }

    /**
     * The workload's metrics; a metric named {@code section.name} ({@code cost.perYear}) goes into a section of its
     * own ({@code ## Cost}) after the plain ones.
     */
    private void metrics() {
        Map<String, Map<String, Double>> sections = new TreeMap<>();
        run.metrics().forEach((k, v) -> {
            int dot = k.indexOf('.');
            String section = dot < 0 ? "" : k.substring(0, dot);
            sections.computeIfAbsent(section, x -> new TreeMap<>()).put(dot < 0 ? k : k.substring(dot + 1), v);
        });
        sections.forEach((section, metrics) -> {
            md.append("## ").append(section.isEmpty() ? "Workload metrics"
                    : Character.toUpperCase(section.charAt(0)) + section.substring(1)).append("\n\n");
            MarkdownTable t = new MarkdownTable().left("Metric").right("Value");
            metrics.forEach((k, v) -> t.row(k, v == null ? "—" : Figures.metric(v)));
            md.append(t.render()).append('\n');
        });
    }

    private void timeline(java.util.Set<String> charts) {
        md.append("## Timeline\n\n");
        if (run.intervals().isEmpty()) {
            md.append("No reporting intervals were recorded, so there is no time series.\n\n");
            return;
        }
        if (charts.isEmpty()) {
            // A machine that cannot draw them, or intervals with nothing in them: say which.
            md.append(Figures.count(run.reportingIntervals())).append(" reporting intervals. ")
                    .append(ChartFonts.missing().orElse("Nothing in them to chart")).append(".\n\n");
            return;
        }
        md.append(Figures.count(run.reportingIntervals())).append(" reporting intervals");
        if (run.intervals().size() < run.reportingIntervals()) {
            md.append(", charted here as the result keeps them: ").append(Figures.count(run.intervals().size()))
                    .append(", each merging consecutive ones (every interval is in ")
                    .append(run.fullTimeline() == null ? "the run's timeline file"
                            : "`" + run.fullTimeline().file() + "`")
                    .append(", drawn by `dashboard.html`)");
        }
        md.append(run.phases().size() < 2 ? "" : "; shaded bands mark the phases").append(".\n\n");
        if (charts.contains(TimelineCharts.THROUGHPUT)) {
            md.append("![Throughput per operation over time](").append(TimelineCharts.THROUGHPUT).append(")\n\n");
        }
        if (charts.contains(TimelineCharts.LATENCY)) {
            md.append("![p95 and p99 latency per operation over time](").append(TimelineCharts.LATENCY)
                    .append(")\n\n");
        }
        for (String chart : charts) {
            if (chart.startsWith(TimelineCharts.GAUGE_PREFIX)) {
                String family = chart.substring(TimelineCharts.GAUGE_PREFIX.length(), chart.length() - ".png".length());
                md.append("![").append(family).append(" over time](").append(chart).append(")\n\n");
            }
        }
    }

    private void errors() {
        md.append("## Errors and retries\n\n");
        long errors = RunTotals.errors(run);
        long retries = run.totalRetries();
        long clamped = run.operations().stream().mapToLong(OperationResult::clampedValues).sum();
        if (clamped > 0) {
            md.append("> **Clamped:** ").append(Figures.count(clamped)).append(" latencies exceeded the histograms' "
                    + "one-hour ceiling and were recorded as one hour; the maximum and the highest percentiles are "
                    + "lower bounds.\n\n");
        }
        if (errors == 0 && retries == 0 && run.operations().stream().allMatch(o -> o.reconnects() == 0)) {
            md.append("No errors, no retries.\n\n");
            return;
        }
        md.append(Figures.count(errors)).append(errors == 1 ? " error, " : " errors, ")
                .append(Figures.count(retries)).append(retries == 1 ? " retry" : " retries");
        long reconnects = run.operations().stream().mapToLong(OperationResult::reconnects).sum();
        if (reconnects > 0) {
            md.append(", ").append(Figures.count(reconnects)).append(" reconnect attempts (not operations, not errors)");
        }
        md.append(".\n\n");
        if (!run.errors().isEmpty()) {
            MarkdownTable t = new MarkdownTable().left("Class", "SQLSTATE").right("Count").left("Example");
            for (ErrorCount e : run.errors()) {
                t.row(Figures.orDash(e.errorClass()), Figures.orDash(e.sqlState()), Figures.count(e.count()),
                        example(e.example()));
            }
            md.append(t.render()).append('\n');
        }
        MarkdownTable perOp = new MarkdownTable().left("op").right("errors", "retries");
        for (OperationResult op : run.operations()) {
            if (op.errors() > 0 || op.retries() > 0) {
                perOp.row(op.name(), Figures.count(op.errors()), Figures.count(op.retries()));
            }
        }
        if (!perOp.isEmpty()) {
            md.append(perOp.render()).append('\n');
        }
    }

    private static String example(String example) {
        if (example == null || example.isBlank()) {
            return "—";
        }
        String oneLine = Redaction.url(example).replaceAll("\\s+", " ").strip();
        return oneLine.length() <= EXAMPLE_LENGTH ? oneLine : oneLine.substring(0, EXAMPLE_LENGTH - 1) + "…";
    }

    private void checks() {
        md.append("## Checks\n\n");
        if (run.checks().isEmpty()) {
            md.append("No checks ran.\n");
            return;
        }
        MarkdownTable t = new MarkdownTable().left("Check", "Status", "Detail");
        for (Check c : run.checks()) {
            t.row(c.name(), String.valueOf(c.status()), Figures.orDash(c.detail()));
        }
        md.append(t.render()).append('\n');
        md.append("**Overall: ").append(run.checkStatus()).append("** — ").append(CheckTally.of(run)).append(".\n");
    }
}
