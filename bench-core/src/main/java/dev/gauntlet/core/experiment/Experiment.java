package dev.gauntlet.core.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A matrix of dimensions, each cell run in turn with identical parameters and the same seed, the whole matrix
 * repeated {@code repeat} times (A B A B ..., so drift over time falls on every cell alike), and the SQL that puts
 * the server back afterwards. An experiment file reads:
 *
 * <pre>
 * # comment
 * title: synchronous_commit on vs off
 * variant on  = ALTER SYSTEM SET synchronous_commit = on; SELECT pg_reload_conf()
 * variant off = ALTER SYSTEM SET synchronous_commit = off; SELECT pg_reload_conf()
 * restore     = ALTER SYSTEM RESET synchronous_commit; SELECT pg_reload_conf()
 * </pre>
 *
 * {@code variant NAME = SQL} lines make the dimension "variant"; {@code level DIMENSION NAME = SQL} lines make any
 * other (e.g. {@code level wal_compression lz4 = ALTER SYSTEM SET wal_compression = lz4}), for a matrix.
 */
public record Experiment(String title, List<Dimension> dimensions, List<String> restore, int repeat) {

    public static final String VARIANT = "variant";

    public Experiment {
        dimensions = List.copyOf(dimensions);
        restore = List.copyOf(restore);
        if (dimensions.isEmpty()) {
            throw new IllegalArgumentException("an experiment needs at least one dimension");
        }
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1 (got " + repeat + ")");
        }
        List<String> names = dimensions.stream().map(Dimension::name).toList();
        if (names.stream().distinct().count() != names.size()) {
            throw new IllegalArgumentException("dimension names must be distinct (got " + names + ")");
        }
        int cells = dimensions.stream().mapToInt(d -> d.levels().size()).reduce(1, (a, b) -> a * b);
        if (cells < 2) {
            throw new IllegalArgumentException("an experiment needs at least two cells to compare (got " + cells + ")");
        }
    }

    /** Every combination of one level per dimension, the first dimension varying slowest. */
    public List<Cell> cells() {
        List<List<Level>> combos = new ArrayList<>();
        combos.add(List.of());
        for (Dimension d : dimensions) {
            List<List<Level>> next = new ArrayList<>();
            for (List<Level> prefix : combos) {
                for (Level l : d.levels()) {
                    List<Level> c = new ArrayList<>(prefix);
                    c.add(l);
                    next.add(c);
                }
            }
            combos = next;
        }
        return combos.stream().map(levels -> new Cell(dimensions, levels)).toList();
    }

    public Experiment withRepeat(int times) {
        return new Experiment(title, dimensions, restore, times);
    }

    public static Experiment read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read experiment file " + file + ": " + e.getMessage());
        }
        String title = file.getFileName().toString();
        Map<String, List<Level>> levels = new LinkedHashMap<>();
        List<String> restore = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            String where = file + ":" + (i + 1);
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                if (line.startsWith("title:")) {
                    title = line.substring("title:".length()).strip();
                } else if (line.startsWith("variant ")) {
                    levels.computeIfAbsent(VARIANT, k -> new ArrayList<>())
                            .add(Level.parse(line.substring("variant ".length()).strip()));
                } else if (line.startsWith("level ")) {
                    String rest = line.substring("level ".length()).strip();
                    int space = rest.indexOf(' ');
                    if (space < 0) {
                        throw new IllegalArgumentException("expected 'level DIMENSION NAME = SQL'");
                    }
                    levels.computeIfAbsent(rest.substring(0, space), k -> new ArrayList<>())
                            .add(Level.parse(rest.substring(space + 1).strip()));
                } else if (line.startsWith("restore")) {
                    int eq = line.indexOf('=');
                    if (eq < 0) {
                        throw new IllegalArgumentException("expected 'restore = SQL; SQL'");
                    }
                    restore.addAll(Level.splitStatements(line.substring(eq + 1)));
                } else {
                    throw new IllegalArgumentException("expected 'title:', 'variant NAME = SQL', "
                            + "'level DIMENSION NAME = SQL' or 'restore = SQL', got '" + line + "'");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage());
            }
        }
        List<Dimension> dimensions = new ArrayList<>();
        levels.forEach((name, ls) -> dimensions.add(new Dimension(name, ls)));
        if (dimensions.isEmpty()) {
            throw new IllegalArgumentException(file + " defines no variant; an experiment needs at least two");
        }
        try {
            return new Experiment(title, dimensions, restore, 1);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage());
        }
    }
}
