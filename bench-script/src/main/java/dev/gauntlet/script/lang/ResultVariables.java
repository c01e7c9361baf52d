package dev.gauntlet.script.lang;

/**
 * A {@code \gset} or {@code \aset} that follows an SQL command: where its results go.
 *
 * <p>pgbench 15 merges the meta-command into the SQL command before it (no command of its own). {@code \gset}
 * stores the columns of the <em>last</em> query of a {@code \;} compound (which must return exactly one row);
 * {@code \aset} stores the columns of every query that returns a row. Each column goes to a variable named prefix +
 * column name.
 *
 * @param mode {@code \gset} or {@code \aset}
 * @param prefix the prefix of the variables' names ({@code ""} when none is given)
 * @param line the 1-based line of the {@code \gset} or {@code \aset}
 */
public record ResultVariables(Mode mode, String prefix, int line) {

    /** Which results are stored. */
    public enum Mode {
        /** {@code \gset}: the last query's one row. */
        GSET,
        /** {@code \aset}: every query's row. */
        ASET
    }
}
