package dev.gauntlet.sql.adversity;

import java.sql.Connection;
import java.sql.Statement;
import java.util.Locale;

/** {@code VACUUM FULL} of a table: rewritten under an ACCESS EXCLUSIVE lock, every query on it waiting meanwhile. */
final class VacuumFull extends SystemDisruption {

    private final String table;

    VacuumFull(String name, SystemUnderTest system, String table) {
        super(name, system);
        this.table = table;
    }

    @Override
    public void start(Log log) throws Exception {
        try (Connection c = system.admin(); Statement s = c.createStatement()) {
            long t0 = System.nanoTime();
            s.execute("VACUUM FULL " + table);
            log.note(String.format(Locale.ROOT, "VACUUM FULL %s took %.1f s", table, (System.nanoTime() - t0) / 1e9));
        }
    }
}
