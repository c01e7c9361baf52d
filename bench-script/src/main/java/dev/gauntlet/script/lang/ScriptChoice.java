package dev.gauntlet.script.lang;

import java.util.ArrayList;
import java.util.List;

/**
 * The scripts of a run and pgbench 15's weighted choice among them ({@code addScript}, {@code chooseScript}).
 */
public final class ScriptChoice {

    /** The most scripts pgbench takes ({@code MAX_SCRIPTS}). */
    public static final int MAX_SCRIPTS = 128;

    private final List<Script> scripts = new ArrayList<>();
    private long totalWeight;

    /** Adds a script; refused past {@link #MAX_SCRIPTS} ({@code at most 128 SQL scripts are allowed}). */
    public ScriptChoice add(Script script) {
        if (scripts.size() >= MAX_SCRIPTS) {
            throw ScriptFileException.of("at most " + MAX_SCRIPTS + " SQL scripts are allowed");
        }
        scripts.add(script);
        totalWeight += script.weight();
        return this;
    }

    /** The scripts in the order they were given. */
    public List<Script> scripts() {
        return List.copyOf(scripts);
    }

    /** The sum of the weights. */
    public long totalWeight() {
        return totalWeight;
    }

    /** Refuses a run whose weights are all zero ({@code total script weight must not be zero}). */
    public void checkTotalWeight() {
        if (totalWeight == 0) {
            throw ScriptFileException.of("total script weight must not be zero");
        }
    }

    /**
     * The index of the script a draw picks, as pgbench's {@code chooseScript}: with one script, 0 (no draw);
     * otherwise {@code draw}, uniform in {@code [0, totalWeight() - 1]} (pgbench draws it from the thread's own
     * generator), falls in the script whose cumulative weight first exceeds it.
     */
    public int pick(long draw) {
        if (scripts.size() == 1) {
            return 0;
        }
        int i = 0;
        long w = draw;
        do {
            w -= scripts.get(i++).weight();
        } while (w >= 0);
        return i - 1;
    }

    /** Whether pgbench needs a draw to choose (more than one script). */
    public boolean needsDraw() {
        return scripts.size() > 1;
    }
}
