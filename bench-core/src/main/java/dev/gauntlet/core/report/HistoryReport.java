package dev.gauntlet.core.report;

import dev.gauntlet.core.history.Change;
import dev.gauntlet.core.history.EDivisive;
import dev.gauntlet.core.history.Figure;
import dev.gauntlet.core.history.HistoryRun;
import dev.gauntlet.core.history.RunHistory;
import dev.gauntlet.core.history.Series;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code history.md}: the change points of a {@link RunHistory}, newest first, then per series a small chart of each
 * figure over the runs (a sparkline, with {@code |} where a change point falls), its newest value and its changes,
 * and the runs with their labels and where each was read from. Plain Markdown, so it reads in a terminal, a pull
 * request or a wiki.
 */
public final class HistoryReport {

    /** The file name {@code report history} writes. */
    public static final String MARKDOWN = "history.md";

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);
    private static final String BARS = "▁▂▃▄▅▆▇█";
    /** The newest runs a sparkline shows; older ones are summarised by the count of runs. */
    static final int SPARK_RUNS = 60;

    private HistoryReport() {
    }

    public static String markdown(RunHistory history) {
        StringBuilder md = new StringBuilder("# History\n\n");
        md.append(history.runCount()).append(history.runCount() == 1 ? " run" : " runs").append(" in ")
                .append(history.series().size()).append(history.series().size() == 1 ? " series" : " series")
                .append(". ").append(method(history.settings())).append("\n\n");
        for (String note : history.notes()) {
            md.append("> ").append(note).append("\n");
        }
        if (!history.notes().isEmpty()) {
            md.append('\n');
        }
        md.append("## Change points, newest first\n\n");
        if (history.changes().isEmpty()) {
            md.append("None: no figure of any series moved beyond the spread of its own runs.\n\n");
        } else {
            MarkdownTable t = new MarkdownTable().left("Run", "Series", "Figure").right("Before", "After", "Change", "p")
                    .left("Verdict");
            for (Change c : history.changes()) {
                t.row(run(c.position(), c.run()), c.series().key().title(), c.figure().title(),
                        Figures.metric(c.before()), Figures.metric(c.after()), Figures.signedPercent(c.changePercent()),
                        pValue(c.pValue()), c.verdict().toString());
            }
            md.append(t.render()).append('\n');
        }
        for (Series s : history.series()) {
            series(md, history, s);
        }
        return md.toString();
    }

    /** One sentence on how change points were found, for the page and the Markdown alike. */
    static String method(RunHistory.Settings settings) {
        EDivisive.Options o = settings.detection();
        return String.format(Locale.ROOT, "Change points by E-divisive means with a permutation test (%d "
                        + "permutations, significance %s, at least %d runs on each side of a change, seed %d)%s%s.",
                o.permutations(), pValue(o.pValue()), o.minSize(), o.seed(),
                settings.minMagnitude() > 0 ? "; changes under " + Figures.threshold(settings.minMagnitude())
                        + " of the mean are not reported" : "",
                settings.by() == null ? "; runs in order of start time" : "; runs in order of " + settings.by());
    }

    private static void series(StringBuilder md, RunHistory history, Series s) {
        List<HistoryRun> runs = s.runs();
        md.append("## ").append(s.key().title()).append("\n\n").append(runs.size())
                .append(runs.size() == 1 ? " run" : " runs").append(", ").append(WHEN.format(runs.get(0).startedAt()))
                .append(" to ").append(WHEN.format(runs.get(runs.size() - 1).startedAt())).append(" UTC. Like for like: ")
                .append(s.key().describe()).append(".\n\n");
        List<Change> changes = history.changes(s);
        MarkdownTable t = new MarkdownTable().left("Figure", "Over the runs, oldest to newest").right("Newest")
                .left("Change points");
        for (Map.Entry<Figure, Series.Line> e : s.lines().entrySet()) {
            List<Change> mine = changes.stream().filter(c -> c.figure().name().equals(e.getKey().name())).toList();
            Series.Line line = e.getValue();
            t.row(e.getKey().title(), "`" + sparkline(line, mine) + "`",
                    Figures.metric(line.values()[line.size() - 1]),
                    mine.isEmpty() ? "—" : String.join("; ", mine.stream().map(c -> "#" + (c.position() + 1) + " "
                            + Figures.signedPercent(c.changePercent()) + " " + c.verdict()).toList()));
        }
        md.append(t.render()).append('\n');
        MarkdownTable r = new MarkdownTable().right("#").left("Started (UTC)", "Labels", "Run", "Source");
        for (int i = 0; i < runs.size(); i++) {
            HistoryRun run = runs.get(i);
            r.row(String.valueOf(i + 1), WHEN.format(run.startedAt()), Figures.orDash(run.labels()),
                    run.result().runId() == null ? "—" : "`" + run.result().runId().substring(0,
                            Math.min(8, run.result().runId().length())) + "`", "`" + run.source() + "`");
        }
        md.append(r.render()).append('\n');
    }

    /**
     * The line as bars scaled from its minimum to its maximum, the newest {@value #SPARK_RUNS} runs at most, with
     * {@code |} before each value where a change point falls.
     */
    static String sparkline(Series.Line line, List<Change> changes) {
        double[] v = line.values();
        int from = Math.max(0, v.length - SPARK_RUNS);
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int i = from; i < v.length; i++) {
            min = Math.min(min, v[i]);
            max = Math.max(max, v[i]);
        }
        StringBuilder b = new StringBuilder(from > 0 ? "…" : "");
        for (int i = from; i < v.length; i++) {
            int position = line.positions()[i];
            if (changes.stream().anyMatch(c -> c.position() == position)) {
                b.append('|');
            }
            int bar = max == min ? 3 : (int) Math.round((v[i] - min) / (max - min) * (BARS.length() - 1));
            b.append(BARS.charAt(bar));
        }
        return b.toString();
    }

    /**
     * A change on one line, as the console and the CI gate print it: {@code tpcc: tpmC 4,012.00 -> 3,120.00 (-22.2%,
     * p=0.001, worse) from run 11 of 20, results/tpcc-...}.
     */
    public static String line(Change c) {
        return c.series().key().title() + ": " + c.figure().title() + " " + Figures.metric(c.before()) + " -> "
                + Figures.metric(c.after()) + " (" + Figures.signedPercent(c.changePercent()) + ", p=" + pValue(c.pValue())
                + ", " + c.verdict() + ") from run " + (c.position() + 1) + " of " + c.series().runs().size() + ", "
                + c.run().source();
    }

    /** A run as the change table names it: its place in the series, start, labels. */
    private static String run(int position, HistoryRun run) {
        String labels = run.labels();
        return "#" + (position + 1) + " " + WHEN.format(run.startedAt()) + (labels.isEmpty() ? "" : " " + labels);
    }

    static String pValue(double p) {
        return p >= 0.01 ? String.format(Locale.ROOT, "%.2f", p) : String.format(Locale.ROOT, "%.3f", p);
    }
}
