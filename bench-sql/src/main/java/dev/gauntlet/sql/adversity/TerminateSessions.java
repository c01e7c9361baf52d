package dev.gauntlet.sql.adversity;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

/** {@code pg_terminate_backend} of every other session on the database: what a failover does to clients, by SQL. */
final class TerminateSessions extends SystemDisruption {

    TerminateSessions(String name, SystemUnderTest system) {
        super(name, system);
    }

    @Override
    public void start(Log log) throws Exception {
        try (Connection c = system.admin(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) "
                     + "FROM pg_stat_activity WHERE backend_type = 'client backend' "
                     + "AND datname = current_database() AND pid <> pg_backend_pid()")) {
            rs.next();
            log.note(rs.getLong(1) + " sessions terminated");
        }
    }
}
