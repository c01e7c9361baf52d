package dev.gauntlet.core.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a set of runs says over time: the runs grouped into {@link Series} of like-for-like runs, ordered by start time
 * or by a label or parameter ({@code --by release}), and in each series every figure's change points
 * ({@link EDivisive}), with the mean before and after each, its significance and whether it is better or worse.
 */
public final class RunHistory {

    /**
     * How a history is read.
     *
     * @param by           a label or parameter to order each series by (versions in natural order: 25.2 before
     *                     25.10), left out of what makes runs like for like; null to order by start time
     * @param detection    the change point search
     * @param minMagnitude the smallest change of the mean that is reported, in percent (0: every significant one)
     */
    public record Settings(String by, EDivisive.Options detection, double minMagnitude) {

        public Settings {
            Objects.requireNonNull(detection, "detection");
            if (!(minMagnitude >= 0) || Double.isInfinite(minMagnitude)) {
                throw new IllegalArgumentException("the minimum magnitude must be a percentage >= 0, got "
                        + minMagnitude);
            }
        }

        public static Settings defaults() {
            return new Settings(null, EDivisive.Options.defaults(), 0);
        }
    }

    private final Settings settings;
    private final List<Series> series;
    private final List<Change> changes;
    private final List<String> notes;

    private RunHistory(Settings settings, List<Series> series, List<Change> changes, List<String> notes) {
        this.settings = settings;
        this.series = series;
        this.changes = changes;
        this.notes = notes;
    }

    /**
     * The history of {@code runs}: a run given twice (the same run id, e.g. from a directory and from a store) counts
     * once, the first time; a run that is part of a merged result given too counts through that result; with {@link Settings#by}, runs that have no such label or parameter are left out and a
     * note says how many.
     */
    public static RunHistory of(List<HistoryRun> runs, Settings settings) {
        List<String> notes = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        List<HistoryRun> distinct = new ArrayList<>();
        int repeated = 0;
        for (HistoryRun run : runs) {
            String id = run.result().runId();
            if (id != null && !seen.add(id)) {
                repeated++;
            } else {
                distinct.add(run);
            }
        }
        if (repeated > 0) {
            notes.add(repeated + " run(s) were found twice (the same run id) and are counted once");
        }
        // A run merged into another one given (a driver process of a merged run, one repeat of a RocksDB series)
        // counts through the merge, once.
        Set<String> merged = new HashSet<>();
        distinct.forEach(r -> merged.addAll(r.result().mergedRunIds()));
        List<HistoryRun> parts = distinct.stream().filter(r -> merged.contains(r.result().runId())).toList();
        if (!parts.isEmpty()) {
            notes.add(parts.size() + " run(s) count through the merged result they are part of");
            distinct.removeAll(parts);
        }
        Comparator<HistoryRun> order = Comparator.comparing(HistoryRun::startedAt);
        Set<String> orderedBy = Set.of();
        if (settings.by() != null) {
            List<HistoryRun> without = distinct.stream().filter(r -> r.value(settings.by()) == null).toList();
            if (!without.isEmpty()) {
                notes.add(without.size() + " run(s) have no label or parameter " + settings.by()
                        + " and are left out (e.g. " + without.get(0).source() + ")");
                distinct.removeAll(without);
            }
            order = Comparator.<HistoryRun, String>comparing(r -> r.value(settings.by()), RunHistory::naturalOrder)
                    .thenComparing(HistoryRun::startedAt);
            orderedBy = Set.of(settings.by());
        }
        Map<SeriesKey, List<HistoryRun>> grouped = new LinkedHashMap<>();
        for (HistoryRun run : distinct) {
            grouped.computeIfAbsent(SeriesKey.of(run.result(), orderedBy), k -> new ArrayList<>()).add(run);
        }
        List<Series> series = new ArrayList<>();
        Comparator<HistoryRun> runOrder = order;
        grouped.forEach((key, members) -> series.add(new Series(key, members.stream().sorted(runOrder).toList())));
        series.sort(Comparator.comparing((Series s) -> s.key().title()).thenComparing(s -> s.key().describe()));
        List<Change> changes = new ArrayList<>();
        for (Series s : series) {
            changes.addAll(changes(s, settings));
        }
        changes.sort(Comparator.comparing((Change c) -> c.run().startedAt()).reversed()
                .thenComparing(c -> c.series().key().describe()));
        return new RunHistory(settings, List.copyOf(series), List.copyOf(changes), List.copyOf(notes));
    }

    private static List<Change> changes(Series series, Settings settings) {
        List<Change> found = new ArrayList<>();
        for (Map.Entry<Figure, Series.Line> e : series.lines().entrySet()) {
            Series.Line line = e.getValue();
            List<EDivisive.ChangePoint> points = EDivisive.find(line.values(), settings.detection());
            for (int i = 0; i < points.size(); i++) {
                int at = points.get(i).index();
                int from = i == 0 ? 0 : points.get(i - 1).index();
                int to = i == points.size() - 1 ? line.size() : points.get(i + 1).index();
                Change change = new Change(series, e.getKey(), line.positions()[at],
                        series.runs().get(line.positions()[at]), mean(line.values(), from, at),
                        mean(line.values(), at, to), points.get(i).pValue());
                if (Math.abs(change.changePercent()) >= settings.minMagnitude()) {
                    found.add(change);
                }
            }
        }
        return found;
    }

    private static double mean(double[] values, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += values[i];
        }
        return sum / (to - from);
    }

    private static final Pattern CHUNK = Pattern.compile("\\d+|\\D+");

    /** Versions and names in natural order: 25.2 before 25.10, run-9 before run-10; other text alphabetically. */
    static int naturalOrder(String a, String b) {
        Matcher ma = CHUNK.matcher(a);
        Matcher mb = CHUNK.matcher(b);
        while (ma.find() && mb.find()) {
            String x = ma.group();
            String y = mb.group();
            int c;
            if (Character.isDigit(x.charAt(0)) && Character.isDigit(y.charAt(0))) {
                String xs = x.replaceFirst("^0+(?=.)", "");
                String ys = y.replaceFirst("^0+(?=.)", "");
                c = xs.length() != ys.length() ? Integer.compare(xs.length(), ys.length()) : xs.compareTo(ys);
            } else {
                c = x.toLowerCase(Locale.ROOT).compareTo(y.toLowerCase(Locale.ROOT));
            }
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.length(), b.length()) != 0 ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
    }

    public Settings settings() {
        return settings;
    }

    /** The series, by title. */
    public List<Series> series() {
        return series;
    }

    /** Every change point found, newest run first. */
    public List<Change> changes() {
        return changes;
    }

    /** The change points of one series, oldest first. */
    public List<Change> changes(Series of) {
        return changes.stream().filter(c -> c.series() == of).sorted(Comparator.comparingInt(Change::position))
                .toList();
    }

    /** Worse changes within the last {@code recent} runs of their series: what {@code --fail-on-regression} fails on. */
    public List<Change> regressions(int recent) {
        return changes.stream().filter(c -> c.regressionWithin(recent)).toList();
    }

    /** What the reader should know about the input (runs counted once, runs left out). */
    public List<String> notes() {
        return notes;
    }

    /** How many runs the history holds. */
    public int runCount() {
        return series.stream().mapToInt(s -> s.runs().size()).sum();
    }
}
