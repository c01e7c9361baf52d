package dev.gauntlet.sql.adversity;

import java.sql.Connection;
import java.sql.Statement;

/**
 * An online schema change: {@code CREATE INDEX CONCURRENTLY} on a large table while the workload writes to it, then
 * {@code DROP INDEX CONCURRENTLY}. Stopped half-way (the run ended), the index, valid or not, is dropped.
 */
final class CreateIndex extends SystemDisruption {

    private final String table;
    private final String columns;
    private final String index;

    CreateIndex(String name, SystemUnderTest system, String table, String columns) {
        super(name, system);
        this.table = table;
        this.columns = columns;
        this.index = "gauntlet_" + table + "_" + columns.replaceAll("\\W+", "_") + "_idx";
    }

    @Override
    public void start(Log log) throws Exception {
        try (Connection c = system.admin(); Statement s = c.createStatement()) {
            s.execute("DROP INDEX CONCURRENTLY IF EXISTS " + index);
            long t0 = System.nanoTime();
            s.execute("CREATE INDEX CONCURRENTLY " + index + " ON " + table + " (" + columns + ")");
            long built = System.nanoTime();
            log.note(String.format(java.util.Locale.ROOT, "CREATE INDEX CONCURRENTLY %s ON %s (%s) took %.1f s",
                    index, table, columns, (built - t0) / 1e9));
            s.execute("DROP INDEX CONCURRENTLY " + index);
            log.note(String.format(java.util.Locale.ROOT, "DROP INDEX CONCURRENTLY took %.1f s",
                    (System.nanoTime() - built) / 1e9));
        }
    }

    @Override
    public void stop(Log log) throws Exception {
        try (Connection c = system.admin(); Statement s = c.createStatement()) {
            s.execute("DROP INDEX CONCURRENTLY IF EXISTS " + index);
        }
    }
}
