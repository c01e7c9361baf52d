package dev.gauntlet.queue.workqueue;

import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Message ids as a SQL {@code bigint[]} parameter ({@code id = ANY(?)}): one statement for a whole batch rather than
 * one per id. Boxed through the standard JDBC call, so any driver of the PostgreSQL protocol takes it.
 */
public final class IdArrays {

    private IdArrays() {
    }

    /** {@code ids[from..to)} as a {@code bigint[]}. */
    public static Array of(Connection c, long[] ids, int from, int to) throws SQLException {
        Long[] boxed = new Long[to - from];
        for (int i = from; i < to; i++) {
            boxed[i - from] = ids[i];
        }
        return c.createArrayOf("bigint", boxed);
    }

    public static Array of(Connection c, long[] ids) throws SQLException {
        return of(c, ids, 0, ids.length);
    }
}
