package dev.gauntlet.script.schema;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The steps of one load and how long each took, told as pgbench tells its own:
 * {@code done in 1.52 s (create tables 0.01 s, client-side generate 0.91 s, ...).}
 */
public final class InitSteps {

    /** A step's work. */
    @FunctionalInterface
    interface Work {
        void run() throws SQLException;
    }

    /** One step done: its name (pgbench's where it is pgbench's step) and its seconds. */
    public record Step(String name, double seconds) {
    }

    private final List<Step> steps = new ArrayList<>();

    InitSteps() {
    }

    /** Runs {@code work} as the step {@code name}, timed. */
    void run(String name, Work work) throws SQLException {
        long start = System.nanoTime();
        work.run();
        steps.add(new Step(name, (System.nanoTime() - start) / 1e9));
    }

    /** The steps, in the order they ran. */
    public List<Step> steps() {
        return List.copyOf(steps);
    }

    /** Seconds of all the steps together. */
    public double seconds() {
        return steps.stream().mapToDouble(Step::seconds).sum();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "done in %.2f s (%s).", seconds(), steps.stream()
                .map(s -> String.format(Locale.ROOT, "%s %.2f s", s.name(), s.seconds()))
                .collect(Collectors.joining(", ")));
    }
}
