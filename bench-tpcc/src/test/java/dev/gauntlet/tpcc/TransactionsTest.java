package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gauntlet.core.db.ConnectionSettings;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The transactions one at a time against one loaded warehouse on a real PostgreSQL. Each test works inside
 * a transaction it rolls back, so the data stays as loaded for the next.
 */
@ExtendWith(PostgresExtension.class)
class TransactionsTest {

    static TestDatabase db;

    @BeforeAll
    static void load(TestDatabase server) throws SQLException, InterruptedException {
        db = server.freshDatabase("transactions_test");
        new Loader(new ConnectionSettings(db.jdbcUrl(), db.user(), db.password()), Dialect.POSTGRES, 2, 7L,
                System.out).load(1);
    }

    /** A connection inside a transaction, for work that is rolled back. */
    private static Connection transaction() throws SQLException {
        Connection c = db.connect();
        c.setAutoCommit(false);
        return c;
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    /** What the operation counted when it committed. */
    private static Map<String, Long> counted(dev.gauntlet.core.run.Operation<Connection> operation) {
        Map<String, Long> counters = new TreeMap<>();
        operation.committed((name, n) -> counters.merge(name, n, Long::sum));
        return counters;
    }

    @Test
    void aDeliveryThatSkipsADistrictIsCountedOnceAsATransactionThatSkipped() throws SQLException {
        try (Connection c = transaction()) {
            Delivery complete = new Delivery(1, 3);
            complete.execute(c);
            assertEquals(Map.of("districts", 10L, "skippedDistricts", 0L), counted(complete));

            execute(c, "DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id IN (4, 7)");
            Delivery skipping = new Delivery(1, 3);
            skipping.execute(c);
            assertEquals(Map.of("districts", 10L, "skippedDistricts", 2L, "withSkippedDistricts", 1L),
                    counted(skipping));
            c.rollback();
        }
    }
}
