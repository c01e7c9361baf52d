package dev.gauntlet.core.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The like-for-like runs of one benchmark ({@link SeriesKey}), in history order: by start time, or by the value a
 * history is ordered by.
 *
 * @param key  what the runs have in common
 * @param runs oldest (or lowest) first
 */
public record Series(SeriesKey key, List<HistoryRun> runs) {

    public Series {
        runs = List.copyOf(runs);
    }

    /**
     * One figure's values over the runs that measured it, with each value's place in the series (a run that did
     * not measure it, e.g. an operation that did not run, is left out of that figure's line).
     *
     * @param positions the run index of each value
     * @param values    the values, in series order
     */
    public record Line(int[] positions, double[] values) {

        public int size() {
            return values.length;
        }
    }

    /**
     * Every figure some run of the series measured, in the order the runs give them, with its line. A figure is
     * known by its name; its unit and direction are the newest run's (an old result may not declare a metric's).
     */
    public Map<Figure, Line> lines() {
        List<Map<String, Double>> byName = new ArrayList<>();
        Map<String, Figure> figures = new LinkedHashMap<>(); // first seen first; put keeps the place, takes the newest
        for (HistoryRun run : runs) {
            Map<String, Double> values = new HashMap<>();
            Figure.readings(run.result()).forEach((figure, value) -> {
                figures.put(figure.name(), figure);
                values.put(figure.name(), value);
            });
            byName.add(values);
        }
        Map<Figure, Line> lines = new LinkedHashMap<>();
        figures.forEach((name, figure) -> {
            int[] positions = IntStream.range(0, runs.size()).filter(i -> byName.get(i).containsKey(name)).toArray();
            lines.put(figure, new Line(positions, IntStream.of(positions).mapToDouble(i -> byName.get(i).get(name))
                    .toArray()));
        });
        return lines;
    }
}
