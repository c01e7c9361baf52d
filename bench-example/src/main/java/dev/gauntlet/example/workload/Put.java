package dev.gauntlet.example.workload;

import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Operation;
import java.sql.Connection;
import java.sql.PreparedStatement;

/** Overwrites one key's value and counts the put in the row's version. */
record Put(long key, byte[] value) implements Operation<Connection> {

    static final String NAME = "put";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws Exception {
        try (PreparedStatement p = c.prepareStatement("UPDATE kv SET v = ?, version = version + 1 WHERE k = ?")) {
            p.setBytes(1, value);
            p.setLong(2, key);
            if (p.executeUpdate() != 1) {
                throw new IllegalStateException("key " + key + " is missing: the data is damaged (run check)");
            }
        }
        attempt.count("bytesWritten", value.length);
    }
}
