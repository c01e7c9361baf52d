package dev.gauntlet.sql.adversity;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

/**
 * {@code kill -9} of one workload backend. The postmaster cannot know what the dead process left in shared memory,
 * so it ends every session and runs crash recovery: one process lost costs every client its connection.
 */
final class KillBackend extends SystemDisruption {

    KillBackend(String name, SystemUnderTest system) {
        super(name, system);
    }

    @Override
    public void start(Log log) throws Exception {
        long pid;
        try (Connection c = system.admin(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' "
                     + "AND datname = current_database() AND pid <> pg_backend_pid() ORDER BY random() LIMIT 1")) {
            if (!rs.next()) {
                throw new IllegalStateException("no workload session to kill");
            }
            pid = rs.getLong(1);
        }
        DiskStall.signal("KILL", List.of(pid));
        log.note("kill -9 of backend " + pid);
    }
}
