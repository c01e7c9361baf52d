package dev.gauntlet.trainevents.schema;

import dev.gauntlet.trainevents.workload.EventBatch;
import dev.gauntlet.trainevents.workload.EventCatalogue;
import dev.gauntlet.trainevents.workload.EventLedger;
import dev.gauntlet.trainevents.workload.Variant;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Creates a variant's tables and seeds them with PENDING events, so processing has a backlog from the start. */
public final class EventTables {

    private static final int SEED_BATCH = 500;

    private EventTables() {
    }

    /**
     * Drops whatever train-event tables exist, creates the variant's, and adds {@code events} PENDING events drawn
     * from {@code seed}, recording them in {@code ledger} (null: not recorded). On a connection in auto-commit mode
     * the tables are created at once and each batch of events is committed (and then recorded) by itself; on one
     * inside a transaction nothing is committed here, so the caller's commit makes all of it visible or none.
     */
    public static void create(Connection c, Variant v, boolean cockroach, long events, long seed, EventLedger ledger)
            throws SQLException {
        boolean batchesCommit = c.getAutoCommit();
        try (Statement s = c.createStatement()) {
            for (String ddl : v.createStatements(cockroach)) {
                s.execute(ddl);
            }
        }
        SplittableRandom random = new SplittableRandom(seed);
        long emittedAt = System.currentTimeMillis();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement(v.addSql())) {
            EventCatalogue.fill(c, seed);
            if (batchesCommit) {
                c.commit();
            }
            for (long done = 0; done < events; ) {
                EventBatch batch = EventBatch.draw(random, (int) Math.min(SEED_BATCH, events - done), emittedAt);
                batch.bind(ps, c);
                ps.executeUpdate();
                if (batchesCommit) {
                    c.commit();
                }
                if (ledger != null) {
                    ledger.added(batch.ids, batch.size());
                }
                done += batch.size();
            }
        } finally {
            if (batchesCommit) {
                c.setAutoCommit(true);
            }
        }
        if (batchesCommit || !cockroach) {
            // CockroachDB refuses CREATE STATISTICS inside a transaction; it collects them by itself soon after.
            try (Statement s = c.createStatement()) {
                s.execute("ANALYZE " + Variant.EVENTS);
                s.execute("ANALYZE " + Variant.STATUS);
                s.execute("ANALYZE " + Variant.DOCUMENTS);
            }
        }
    }

    /** Keeps a copy of the variant's seeded events and status rows, for {@link #restore}. */
    public static void keep(Connection c, Variant v, boolean cockroach) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : v.keepStatements(cockroach)) {
                s.execute(sql);
            }
        }
    }

    /**
     * Puts the tables back as {@link #keep} found them, analyzed as after seeding, in one round trip on {@code c} (a
     * connection the workload has used, given with auto-commit off, as it is left). PostgreSQL: one call of the
     * function {@link #keep} made, in auto-commit as the workload runs its statements ({@link Variant#restoreKeptSql}),
     * and not prepared: a prepared statement would sit in the connection's statement cache beside the workload's,
     * and the cache's compiled code, inlined into the workload's operations, met an order it had never seen.
     * CockroachDB (which collects statistics by itself): the statements in one transaction.
     */
    public static void restore(Connection c, Variant v, boolean cockroach) throws SQLException {
        if (cockroach) {
            try (Statement s = c.createStatement()) {
                s.execute(String.join(";\n", v.restoreStatements()));
            }
            c.commit();
            return;
        }
        c.setAutoCommit(true);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(Variant.restoreKeptSql())) {
            rs.next();
        } finally {
            // A session lost meanwhile stays lost: its own error is the one to tell, not "closed" from this.
            if (!c.isClosed()) {
                c.setAutoCommit(false);
            }
        }
    }

    public static void drop(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String ddl : Variant.dropStatements()) {
                s.execute(ddl);
            }
        }
    }
}
