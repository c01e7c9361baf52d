package dev.gauntlet.core.experiment;

import dev.gauntlet.core.report.PairComparison;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One combination of an experiment: a level of every dimension, e.g. {@code jsonb / pooled}. Its SQL is the levels'
 * SQL in dimension order; its label names it in comparisons and its directory name on disk.
 */
public record Cell(List<Dimension> dimensions, List<Level> levels) {

    public Cell {
        dimensions = List.copyOf(dimensions);
        levels = List.copyOf(levels);
        if (dimensions.size() != levels.size()) {
            throw new IllegalArgumentException("a cell needs one level per dimension");
        }
    }

    /** {@code jsonb / pooled}; a single dimension's cell is just its level's name. */
    public String label() {
        return levels.stream().map(Level::name).collect(Collectors.joining(" / "));
    }

    /** {@code jsonb+pooled}: level names are directory-safe, and so is '+'. */
    public String directoryName() {
        return levels.stream().map(Level::name).collect(Collectors.joining("+"));
    }

    /** The level of the named dimension. */
    public Optional<Level> level(String dimension) {
        for (int i = 0; i < dimensions.size(); i++) {
            if (dimensions.get(i).name().equals(dimension)) {
                return Optional.of(levels.get(i));
            }
        }
        return Optional.empty();
    }

    /** Dimension name to level name, in dimension order (recorded in each run's parameters). */
    public Map<String, String> coordinates() {
        Map<String, String> c = new LinkedHashMap<>();
        for (int i = 0; i < dimensions.size(); i++) {
            c.put(dimensions.get(i).name(), levels.get(i).name());
        }
        return c;
    }

    /**
     * What a run of this cell records in its result's parameters: each dimension's level, each setting in effect as
     * {@code setting NAME}, and under {@link PairComparison#VARIABLES} the names of those parameters, so a comparison
     * knows they are what the experiment varies, not differences that make the runs unlike.
     */
    public Map<String, Object> runParameters(Map<String, String> settingsInEffect) {
        Map<String, Object> p = new LinkedHashMap<>(coordinates());
        settingsInEffect.forEach((k, v) -> p.put("setting " + k, v));
        p.put(PairComparison.VARIABLES, String.join(", ", p.keySet()));
        return p;
    }

    public List<String> statements() {
        List<String> sql = new ArrayList<>();
        levels.forEach(l -> sql.addAll(l.statements()));
        return sql;
    }

    public Map<String, String> requestedSettings() {
        Map<String, String> wanted = new LinkedHashMap<>();
        levels.forEach(l -> wanted.putAll(l.requestedSettings()));
        return wanted;
    }
}
