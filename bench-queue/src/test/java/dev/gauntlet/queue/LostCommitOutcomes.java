package dev.gauntlet.queue;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gauntlet.core.run.Disruption;
import dev.gauntlet.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Disruptions that make a real PostgreSQL lose the outcome of commits, the two ways it can go. For the length of the
 * disruption, a deferred trigger holds the transactions that change rows of one table at COMMIT; their sessions are
 * ended there, before the commit landed or after. Either way the client's COMMIT gets no answer (an ambiguous commit,
 * which the runner reports to the operation's {@code ifCommitUnknown}); only the database knows.
 */
final class LostCommitOutcomes {

    private static final long HOLD_KEY = 0x6761756e746c6574L;
    private static final String TRIGGER = "gauntlet_hold_commit";

    private LostCommitOutcomes() {
    }

    /**
     * Transactions that {@code events} ({@code "INSERT"}, {@code "DELETE"}, {@code "UPDATE"}...) rows of
     * {@code table} wait at COMMIT for an advisory lock the disruption holds, until it ends their sessions: their
     * commits never landed. Ends them once {@code atLeast} wait (or after 10 s).
     */
    static Disruption endedBeforeLanding(TestDatabase db, String table, String events, int atLeast) {
        return new Held(db, table, events, atLeast, "before it landed", "PERFORM pg_advisory_xact_lock_shared("
                + HOLD_KEY + ")", "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = "
                + "(SELECT oid FROM pg_database WHERE datname = current_database())") {
            private Connection holder;

            @Override
            void hold(Statement s) throws SQLException {
                holder = db.connect();
                try (Statement h = holder.createStatement()) {
                    h.execute("SELECT pg_advisory_lock(" + HOLD_KEY + ")");
                }
            }

            @Override
            void release(Statement s) throws SQLException {
                holder.close(); // and its lock with it
            }
        };
    }

    /**
     * Transactions that {@code events} rows of {@code table} ask at COMMIT for a synchronous standby that does not
     * exist ({@code synchronous_commit} on for them alone, {@code synchronous_standby_names} server wide for the
     * length of the disruption), until it ends their sessions: PostgreSQL has committed them locally and they stay,
     * but no client hears so. The database's other sessions commit locally from the start, so they never wait. Ends
     * them once {@code atLeast} wait (or after 10 s). Needs a superuser (ALTER SYSTEM): a test on any other server
     * is skipped.
     */
    static Disruption endedAfterLanding(TestDatabase db, String table, String events, int atLeast)
            throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")) {
                assumeTrue(rs.next() && rs.getBoolean(1), "ALTER SYSTEM needs a superuser");
            }
            s.execute("ALTER DATABASE " + db.database() + " SET synchronous_commit = local");
        }
        return new Held(db, table, events, atLeast, "after it landed",
                "PERFORM set_config('synchronous_commit', 'on', true)",
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'SyncRep'") {
            @Override
            void hold(Statement s) throws SQLException {
                s.execute("ALTER SYSTEM SET synchronous_standby_names = 'gauntlet_no_such_standby'");
                s.execute("SELECT pg_reload_conf()");
            }

            @Override
            void release(Statement s) throws SQLException {
                s.execute("ALTER SYSTEM RESET synchronous_standby_names");
                s.execute("SELECT pg_reload_conf()");
            }
        };
    }

    /** Holds commits with a deferred trigger doing {@code atCommit}, and ends the sessions {@code waiting} lists. */
    private abstract static class Held implements Disruption {
        private final TestDatabase db;
        private final String table;
        private final String events;
        private final int atLeast;
        private final String when;
        private final String atCommit;
        private final String waiting;

        Held(TestDatabase db, String table, String events, int atLeast, String when, String atCommit, String waiting) {
            this.db = db;
            this.table = table;
            this.events = events;
            this.atLeast = atLeast;
            this.when = when;
            this.atCommit = atCommit;
            this.waiting = waiting;
        }

        /** Makes the trigger's commits wait. */
        abstract void hold(Statement s) throws SQLException;

        /** Lets them go. */
        abstract void release(Statement s) throws SQLException;

        @Override
        public String name() {
            return "end sessions at COMMIT " + when;
        }

        @Override
        public void start(Log log) throws Exception {
            try (Connection admin = db.connect(); Statement s = admin.createStatement()) {
                List<Integer> ended = new ArrayList<>();
                hold(s);
                try {
                    s.execute("CREATE FUNCTION " + TRIGGER + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                            + atCommit + "; RETURN NULL; END $$");
                    s.execute("CREATE CONSTRAINT TRIGGER " + TRIGGER + " AFTER " + events + " ON " + table
                            + " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION " + TRIGGER + "()");
                    ended.addAll(waitFor(admin));
                    for (int pid : ended) {
                        s.execute("SELECT pg_terminate_backend(" + pid + ", 5000)");
                    }
                } finally {
                    release(s);
                    s.execute("DROP TRIGGER IF EXISTS " + TRIGGER + " ON " + table);
                    s.execute("DROP FUNCTION IF EXISTS " + TRIGGER + "()");
                }
                log.note("ended " + ended.size() + " session(s) waiting at COMMIT, " + when);
            }
        }

        /** The pids of the sessions held, once there are {@code atLeast} (or after 10 s, however many there are). */
        private List<Integer> waitFor(Connection c) throws Exception {
            List<Integer> pids = new ArrayList<>();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (pids.size() < atLeast && System.nanoTime() < deadline) {
                Thread.sleep(20);
                pids.clear();
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(waiting)) {
                    while (rs.next()) {
                        pids.add(rs.getInt(1));
                    }
                }
            }
            return pids;
        }
    }
}
