package dev.gauntlet.core.experiment;

import java.util.List;

/**
 * One thing an experiment varies, with the values it takes: a server setting (on, off), a schema variant (jsonb,
 * text), a connection mode (direct, pooled). Every combination of one level per dimension is a {@link Cell}.
 */
public record Dimension(String name, List<Level> levels) {

    public Dimension {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a dimension needs a name");
        }
        levels = List.copyOf(levels);
        if (levels.isEmpty()) {
            throw new IllegalArgumentException("dimension " + name + " has no levels");
        }
        List<String> names = levels.stream().map(Level::name).toList();
        if (names.stream().distinct().count() != names.size()) {
            throw new IllegalArgumentException(name + " levels must be distinct (got " + names + ")");
        }
    }

    /** A dimension of levels the workload interprets by name, e.g. {@code --pool direct,pooled}. */
    public static Dimension of(String name, List<String> levelNames) {
        return new Dimension(name, levelNames.stream().map(Level::named).toList());
    }
}
