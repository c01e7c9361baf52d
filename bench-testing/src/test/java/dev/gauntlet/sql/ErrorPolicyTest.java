package dev.gauntlet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.ErrorCount;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Failure;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.core.run.Runner;
import dev.gauntlet.core.run.Step;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The error policy against failures a real PostgreSQL raises: serialization failures and deadlocks are
 * retried, killed backends and a restarted server are survived, timeouts are counted, anything else stops
 * the run with its message.
 */
@ExtendWith(PostgresExtension.class)
class ErrorPolicyTest {

    static TestDatabase db;

    @BeforeAll
    static void schema(TestDatabase server) throws SQLException {
        db = server.freshDatabase("error_policy_test");
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("create table counter (id int primary key, v bigint not null)");
            s.execute("insert into counter values (1, 0), (2, 0)");
        }
    }

    private static ConnectionSettings settings() {
        return new ConnectionSettings(db.jdbcUrl(), db.user(), db.password());
    }

    private static Workload<Connection> workload(String name, Operation.Body<Connection> body) {
        return workload(name, Duration.ZERO, body);
    }

    /** Each client runs {@code body} over and over, pausing {@code pause} before each. */
    private static Workload<Connection> workload(String name, Duration pause, Operation.Body<Connection> body) {
        Operation<Connection> op = Operation.of(name, body);
        return new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of(name);
            }

            @Override
            public ClientScript<Connection> client(int index, int clients, SplittableRandom random) {
                return () -> Step.after(pause, op);
            }
        };
    }

    private static RunRecord run(RunPlan plan, Workload<Connection> w, JdbcTarget target) throws InterruptedException {
        try (target) {
            return new Runner<>(plan, w, target, RunListener.NONE, null).run();
        }
    }

    private static long count(RunRecord r, String errorClass) {
        return r.errors().stream().filter(e -> e.errorClass().equals(errorClass)).mapToLong(ErrorCount::count).sum();
    }

    private static long value(int id) throws SQLException {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement("select v from counter where id = ?")) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Test
    void serializationFailuresAreRetriedAndNoUpdateIsLost() throws Exception {
        long before = value(1);
        Workload<Connection> increment = workload("increment", c -> {
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try (Statement s = c.createStatement()) {
                s.executeQuery("select v from counter where id = 1").close();
                Thread.sleep(2); // widen the window so concurrent transactions conflict
                s.executeUpdate("update counter set v = v + 1 where id = 1");
            }
        });
        RunPlan plan = RunPlan.builder().clients(4, 0).iterations(25).maxAttempts(200).seed(7).build();
        RunRecord r = run(plan, increment, JdbcTarget.direct(settings()));
        OperationResult op = r.operations().get(0);
        assertNull(r.fatalError());
        assertEquals(100, op.count());
        assertEquals(0, op.errors());
        assertTrue(op.retries() > 0, "concurrent repeatable-read updates of one row must conflict");
        ErrorCount retried = r.errors().stream().filter(e -> e.errorClass().equals(ErrorCount.RETRIED)).findFirst().orElseThrow();
        assertEquals(SqlStates.SERIALIZATION_FAILURE, retried.sqlState());
        assertEquals(before + 100, value(1), "every committed increment is there exactly once");
    }

    @Test
    void aDeadlockIsClassifiedAsRetryable() throws Exception {
        CountDownLatch bothLocked = new CountDownLatch(2);
        // Two threads of our own: the common pool may have a single thread on a 2-core machine.
        java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
        SQLException ea;
        SQLException eb;
        try {
            CompletableFuture<SQLException> a = CompletableFuture.supplyAsync(() -> lockInOrder(1, 2, bothLocked), two);
            CompletableFuture<SQLException> b = CompletableFuture.supplyAsync(() -> lockInOrder(2, 1, bothLocked), two);
            ea = a.get(30, TimeUnit.SECONDS);
            eb = b.get(30, TimeUnit.SECONDS);
        } finally {
            two.shutdownNow();
        }
        SQLException victim = ea != null ? ea : eb;
        assertTrue(ea == null ^ eb == null, "exactly one transaction is the deadlock victim");
        Failure f = SqlStates.classify(victim);
        assertEquals(SqlStates.DEADLOCK, f.code());
        assertEquals(Failure.Kind.RETRY, f.kind());
    }

    /**
     * A write refused because the server takes none now (SQLSTATE 25006: a demoted primary, or a standby a router sent
     * the session to) puts the session on the wrong server: it is a connection failure, reopened, not the run's end.
     */
    @Test
    void aWriteOnAServerThatTakesNoneIsAConnectionFailure() throws Exception {
        SQLException refused;
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("set default_transaction_read_only = on");
            refused = assertThrows(SQLException.class, () -> s.executeUpdate("update counter set v = v where id = 1"));
        }
        assertEquals("25006", refused.getSQLState(), refused.toString());
        assertEquals(Failure.Kind.CONNECTION, SqlStates.classify(refused).kind());
        // Refused as the statement that would have committed it ran: the server said no, nothing is unknown.
        try (JdbcTarget target = JdbcTarget.direct(settings())) {
            Connection session = target.open();
            try (Statement s = session.createStatement()) {
                s.execute("set session characteristics as transaction read only");
            }
            session.commit();
            Exception e = assertThrows(Exception.class, () -> target.transact(session, alone(Operation.Commit.IMPLICIT,
                    "update counter set v = v + 1 where id = 2"), new dev.gauntlet.core.run.Attempt()));
            assertEquals(Failure.Kind.CONNECTION, target.classify(e).kind(), e.toString());
            target.release(session, true);
        }
    }

    private static SQLException lockInOrder(int first, int second, CountDownLatch bothLocked) {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("update counter set v = v where id = " + first);
                bothLocked.countDown();
                bothLocked.await(10, TimeUnit.SECONDS);
                s.executeUpdate("update counter set v = v where id = " + second);
                c.commit();
                return null;
            } catch (SQLException e) {
                c.rollback();
                return e;
            }
        } catch (SQLException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void terminatedBackendsAreReplacedAndTheRunGoesOn() throws Exception {
        Workload<Connection> select = workload("select", c -> {
            try (Statement s = c.createStatement()) {
                s.executeQuery("select pg_sleep(0.002)").close();
            }
        });
        RunPlan plan = RunPlan.closedLoop(3, Duration.ofSeconds(3)).withReportEvery(Duration.ofMillis(500));
        CompletableFuture<Integer> killer = CompletableFuture.supplyAsync(() -> {
            try {
                Thread.sleep(1000);
                try (Connection c = db.connect(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("select count(pg_terminate_backend(pid)) from pg_stat_activity "
                             + "where application_name = 'gauntlet' and pid <> pg_backend_pid()")) {
                    rs.next();
                    return rs.getInt(1);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        RunRecord r = run(plan, select, JdbcTarget.direct(settings()));
        assertEquals(3, killer.get(), "the three client sessions were terminated");
        assertNull(r.fatalError(), "connection loss must not end the run");
        // A session killed while COMMIT was in flight is an ambiguous commit, not a plain connection loss.
        assertTrue(count(r, "connection") + count(r, "ambiguous-commit") >= 3, "the lost sessions are counted: " + r.errors());
        assertTrue(r.errors().stream().anyMatch(e -> SqlStates.ADMIN_SHUTDOWN.equals(e.sqlState())
                || e.sqlState().startsWith("08")), r.errors().toString());
        List<Interval> last = r.intervals().subList(r.intervals().size() - 2, r.intervals().size());
        assertTrue(last.stream().allMatch(i -> i.operations().get("select").count() > 0),
                "clients reconnected and kept working after the kill");
    }

    /**
     * A server that ends idle sessions (idle_session_timeout, SQLSTATE 57P05) or sessions idle in a transaction
     * (idle_in_transaction_session_timeout, 25P03) has lost the client its session: reconnect and count it, never
     * end the run. Each client here idles past the server's timeout between or inside its transactions.
     */
    @Test
    void sessionsTheServerEndsForIdlingAreReopenedAndTheRunGoesOn() throws Exception {
        Workload<Connection> idleBetween = workload("idleBetween", Duration.ofMillis(300), c -> {
            try (Statement s = c.createStatement()) {
                s.execute("SET idle_session_timeout = '100ms'");
            }
        });
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        Workload<Connection> idleInside = workload("idleInside", c -> {
            try (Statement s = c.createStatement()) {
                s.execute("SET idle_in_transaction_session_timeout = '100ms'");
                if (calls.incrementAndGet() % 2 == 0) {
                    Thread.sleep(300); // every other transaction idles past the timeout
                }
                s.execute("SELECT 1");
            }
        });
        Map<String, String> expected = Map.of("idleBetween", SqlStates.IDLE_SESSION_TIMEOUT, "idleInside",
                SqlStates.IDLE_IN_TRANSACTION_TIMEOUT);
        for (Workload<Connection> w : List.of(idleBetween, idleInside)) {
            String name = w.operationNames().get(0);
            RunPlan plan = RunPlan.closedLoop(2, Duration.ofSeconds(3)).withReportEvery(Duration.ofMillis(500));
            RunRecord r = run(plan, w, JdbcTarget.direct(settings()));
            assertNull(r.fatalError(), name + ": a session the server ended for idling must not end the run");
            assertTrue(r.errors().stream().anyMatch(e -> expected.get(name).equals(e.sqlState())
                    && e.errorClass().equals("connection")), name + ": counted as a lost session: " + r.errors());
            assertTrue(r.operations().get(0).count() >= 2 * 2, name + ": clients reconnected and kept working: "
                    + r.operations().get(0).count());
        }
    }

    /** An operation of one statement, committed as {@code commit} says. */
    private static Operation<Connection> alone(Operation.Commit commit, String sql) {
        return new Operation<>() {
            @Override
            public String name() {
                return "alone";
            }

            @Override
            public Commit commit() {
                return commit;
            }

            @Override
            public void execute(Connection c, dev.gauntlet.core.run.Attempt attempt) throws SQLException {
                try (Statement s = c.createStatement()) {
                    s.execute(sql);
                }
            }
        };
    }

    @Test
    void aStatementThatCommitsItselfNeedsNoCommitAndASessionLostDuringItLeavesTheCommitUnknown() throws Exception {
        try (JdbcTarget target = JdbcTarget.direct(settings())) {
            Connection session = target.open();
            long before = value(2);
            target.transact(session, alone(Operation.Commit.IMPLICIT, "update counter set v = v + 1 where id = 2"),
                    new dev.gauntlet.core.run.Attempt());
            assertEquals(before + 1, value(2), "committed by the server as it answered");
            assertTrue(!session.getAutoCommit(), "the session is back in explicit transactions");

            // The session is killed while a writing statement runs in auto-commit: whether it committed is unknown.
            CompletableFuture<Void> killer = killAfter(session, 500);
            Exception lost = assertThrows(Exception.class, () -> target.transact(session,
                    alone(Operation.Commit.IMPLICIT, "select pg_sleep(5)"), new dev.gauntlet.core.run.Attempt()));
            killer.get(10, TimeUnit.SECONDS);
            assertEquals(Failure.Kind.AMBIGUOUS_COMMIT, target.classify(lost).kind(), lost.toString());
            target.release(session, true);

            // A read-only one has nothing to commit: the same loss is a plain connection error.
            Connection reader = target.open();
            CompletableFuture<Void> second = killAfter(reader, 500);
            Exception readLost = assertThrows(Exception.class, () -> target.transact(reader,
                    alone(Operation.Commit.NONE, "select pg_sleep(5)"), new dev.gauntlet.core.run.Attempt()));
            second.get(10, TimeUnit.SECONDS);
            assertEquals(Failure.Kind.CONNECTION, target.classify(readLost).kind(), readLost.toString());
            target.release(reader, true);
        }
    }

    /** Terminates {@code session}'s backend after {@code millis}. */
    private static CompletableFuture<Void> killAfter(Connection session, long millis) throws SQLException {
        int pid = session.unwrap(org.postgresql.PGConnection.class).getBackendPID();
        return CompletableFuture.runAsync(() -> {
            try {
                Thread.sleep(millis);
                try (Connection c = db.connect(); Statement s = c.createStatement()) {
                    s.execute("select pg_terminate_backend(" + pid + ")");
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void aRunSurvivesARestartOfItsDatabase() throws Exception {
        Workload<Connection> increment = workload("increment", c -> {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("update counter set v = v + 1 where id = 2");
            }
        });
        RunPlan plan = RunPlan.closedLoop(2, Duration.ofSeconds(6)).withReportEvery(Duration.ofSeconds(1));
        CompletableFuture<Void> restart = CompletableFuture.runAsync(() -> {
            try {
                Thread.sleep(1500);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            db.restart(true);
        });
        RunRecord r = run(plan, increment, JdbcTarget.pooled(settings(), 2));
        restart.get(60, TimeUnit.SECONDS);
        assertNull(r.fatalError(), "a database restart must not end the run: " + r.fatalError());
        assertTrue(count(r, "connection") + count(r, "ambiguous-commit") + count(r, "timeout") > 0,
                "the restart was noticed: " + r.errors());
        Interval last = r.intervals().get(r.intervals().size() - 1);
        assertTrue(last.operations().get("increment").count() > 0, "work resumed after the restart");
    }

    @Test
    void aStatementTimeoutIsCountedAndTheClientMovesOn() throws Exception {
        Workload<Connection> slow = workload("slow", c -> {
            try (Statement s = c.createStatement()) {
                s.execute("set local statement_timeout = '50ms'");
                s.executeQuery("select pg_sleep(1)").close();
            }
        });
        RunPlan plan = RunPlan.builder().clients(1, 0).iterations(3).maxAttempts(3).seed(1).build();
        RunRecord r = run(plan, slow, JdbcTarget.direct(settings()));
        assertNull(r.fatalError());
        assertEquals(3, count(r, "timeout"));
        assertEquals(SqlStates.QUERY_CANCELED, r.errors().get(0).sqlState());
    }

    @Test
    void anyOtherErrorStopsTheRunWithItsMessage() throws Exception {
        Workload<Connection> broken = workload("broken", c -> {
            try (Statement s = c.createStatement()) {
                s.executeQuery("select * from no_such_table").close();
            }
        });
        RunRecord r = run(RunPlan.closedLoop(2, Duration.ofSeconds(30)), broken, JdbcTarget.direct(settings()));
        assertTrue(r.failed());
        assertTrue(r.fatalError().contains("no_such_table"), r.fatalError());
        assertEquals("42P01", r.errors().get(0).sqlState());
    }

    @Test
    void anUnreachableDatabaseIsOneClearLine() {
        DatabaseUnavailableException e = assertThrows(DatabaseUnavailableException.class, () -> Database.probe(
                new ConnectionSettings("jdbc:postgresql://127.0.0.1:1/x?password=hunter2", "u", null), null));
        assertTrue(e.getMessage().startsWith("cannot reach the database at jdbc:postgresql://127.0.0.1:1/x"), e.getMessage());
        assertTrue(!e.getMessage().contains("hunter2"), "no password in messages");
        assertEquals(1, e.getMessage().lines().count());
    }
}
