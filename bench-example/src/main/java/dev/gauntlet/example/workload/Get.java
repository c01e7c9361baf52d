package dev.gauntlet.example.workload;

import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Operation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/** Reads one key's value; counts the bytes read (an observation the runner records like any counter). */
record Get(long key) implements Operation<Connection> {

    static final String NAME = "get";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws Exception {
        try (PreparedStatement p = c.prepareStatement("SELECT v FROM kv WHERE k = ?")) {
            p.setLong(1, key);
            try (ResultSet rs = p.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("key " + key + " is missing: the data is damaged (run check)");
                }
                attempt.count("bytesRead", rs.getBytes(1).length);
            }
        }
    }
}
