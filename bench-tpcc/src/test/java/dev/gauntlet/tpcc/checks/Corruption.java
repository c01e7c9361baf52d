package dev.gauntlet.tpcc.checks;

import dev.gauntlet.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deliberate inconsistency for tests: statements that break consistency conditions, each paired with the
 * statement that exactly undoes it. The change is committed (the checks take a snapshot of their own, so
 * they must see it) and undone when the returned handle is closed, which lets every test share one loaded
 * database instead of reloading it.
 */
final class Corruption {

    /** The applied change; closing it runs the undo statements in reverse order, in one transaction. */
    interface Applied extends AutoCloseable {
        @Override
        void close() throws SQLException;
    }

    private final List<String> changes = new ArrayList<>();
    private final List<String> undos = new ArrayList<>();

    /** Adds a change and the statement that reverses it. */
    Corruption change(String sql, String undo) {
        changes.add(sql);
        undos.add(0, undo);
        return this;
    }

    /** This corruption followed by {@code more}. */
    Corruption and(Corruption more) {
        Corruption both = new Corruption();
        both.changes.addAll(changes);
        both.changes.addAll(more.changes);
        both.undos.addAll(more.undos);
        both.undos.addAll(undos);
        return both;
    }

    Applied applyTo(TestDatabase db) throws SQLException {
        execute(db, changes);
        return () -> execute(db, undos);
    }

    /**
     * Runs the statements in one transaction. A data change that touches no row is an error: a typo in a
     * WHERE clause would otherwise leave a test "corrupting" nothing, or an undo restoring nothing.
     */
    private static void execute(TestDatabase db, List<String> statements) throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                for (String sql : statements) {
                    int rows = s.executeUpdate(sql);
                    String verb = sql.strip().split("\\s+")[0].toUpperCase(Locale.ROOT);
                    if (rows == 0 && List.of("UPDATE", "DELETE", "INSERT").contains(verb)) {
                        throw new IllegalStateException("no row changed by: " + sql);
                    }
                }
            }
            c.commit();
        }
    }
}
