package dev.gauntlet.sql;

import dev.gauntlet.core.cli.RunOptions;
import dev.gauntlet.core.result.WorkerShare;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * Where the driver processes of one run split with {@code --worker I/N} meet: on the database they all reach. A
 * process says it has reached a step ({@link #arrive}: one row of {@code gauntlet_rendezvous}, keyed by the run's
 * name, the step and the worker) and another waits until the workers it needs have ({@link #await}), polling. The run's
 * name is what the processes share and no earlier run had, the {@code --start-at} instant, so rows a previous run
 * left behind never satisfy a wait. Waits last until a grace period past that instant: processes started long
 * before it wait for it, a process that never comes fails the others' wait with one line.
 *
 * <p>Two patterns cover the workloads: {@link #afterWorkerZero} (worker 0 creates the tables, the others wait for
 * them) and {@link #allArrived} (every process stores its ledger, worker 0 verifies them all). A process that runs
 * the whole run is worker 0 of 1: it waits for nobody and writes nothing, so workloads need no second path.
 *
 * <p>{@link #until} is the wait itself, for a condition a workload reads from its own tables (TPC-C's load record).
 */
public final class Rendezvous {

    /** Asked while waiting: whether the awaited state is there. An SQL error counts as not yet (tables may be in the making). */
    @FunctionalInterface
    public interface Condition {
        boolean holds(Connection c) throws SQLException;
    }

    static final String TABLE = "gauntlet_rendezvous";
    /** How long past --start-at (and past the run, for what comes after it) a process waits for the others. */
    public static final Duration GRACE = Duration.ofMinutes(10);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration NOTE_EVERY = Duration.ofSeconds(30);

    private final ConnectionSettings settings;
    private final Instant startAt;
    private final String run;
    private final WorkerShare share;
    private final PrintStream out;

    /** Where this process of a run meets the others ({@code --start-at}, {@code --worker}): worker 0 of 1, meeting
     * nobody, when it runs it all. */
    public static Rendezvous of(ConnectionSettings settings, RunOptions options, PrintStream out) {
        return new Rendezvous(settings, options.startAt(), options.share(), out);
    }

    /**
     * @param startAt when the run starts in every process of it ({@code --start-at}): its name; may be null for a
     *                whole run
     * @param share   this process's share
     */
    public Rendezvous(ConnectionSettings settings, Instant startAt, WorkerShare share, PrintStream out) {
        if (startAt == null && !share.whole()) {
            throw new IllegalArgumentException("a run split between processes needs its --start-at to meet by");
        }
        this.settings = settings;
        this.startAt = startAt;
        this.run = startAt == null ? null : startAt.toString();
        this.share = share;
        this.out = out;
    }

    /**
     * Worker 0 does {@code work}, then says it reached {@code step}; the others wait until it has, up to
     * {@link #GRACE} past the start.
     *
     * @param what what the others wait for, for the progress line and the error ("worker 0 to create the tables")
     */
    public void afterWorkerZero(String step, Runnable work, String what) {
        if (share.index() == 0) {
            work.run();
            if (!share.whole()) {
                arrive(step);
            }
        } else {
            await(step, 1, GRACE, what);
        }
    }

    /**
     * Says this process reached {@code step}, after its run; in worker 0, then waits until every worker has (up to
     * {@code runLength} and {@link #GRACE} past the start) and returns true: worker 0 may now use what they all left.
     * The others return false at once.
     */
    public boolean allArrived(String step, Duration runLength, String what) {
        if (share.whole()) {
            return true;
        }
        arrive(step);
        if (share.index() != 0) {
            return false;
        }
        await(step, share.count(), GRACE.plus(runLength), what);
        return true;
    }

    /** Removes the table of arrivals (every run's), as a workload's {@code drop} does. */
    public static void drop(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + TABLE);
        }
    }

    public WorkerShare share() {
        return share;
    }

    /** Records that this process reached {@code step}. */
    public void arrive(String step) {
        SQLException last = null;
        // Several processes creating the table at once can collide on the catalog: the loser tries again.
        for (int attempt = 0; attempt < 3; attempt++) {
            try (Connection c = settings.connectForAdmin(); Statement s = c.createStatement()) {
                c.setAutoCommit(true);
                s.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (run text NOT NULL, step text NOT NULL, "
                        + "worker int NOT NULL, arrived_at timestamptz NOT NULL DEFAULT now(), "
                        + "PRIMARY KEY (run, step, worker))");
                for (int worker : share.indices().stream().toArray()) {
                    try (PreparedStatement p = c.prepareStatement("INSERT INTO " + TABLE + " (run, step, worker) "
                            + "VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
                        p.setString(1, run);
                        p.setString(2, step);
                        p.setInt(3, worker);
                        p.executeUpdate();
                    }
                }
                return;
            } catch (SQLException e) {
                last = e;
            }
        }
        throw new DatabaseUnavailableException("worker " + share + " could not record reaching '" + step + "': "
                + SqlStates.message(last), last);
    }

    /**
     * Waits until workers {@code 0..from-1} of this run reached {@code step}, or {@code grace} past the start passes.
     *
     * @param from how many workers, counted from 0 (1: worker 0 alone; the split's size: all of them)
     * @param what what the wait is for, for the progress line and the error ("worker 0 to create the tables")
     */
    public void await(String step, int from, Duration grace, String what) {
        Duration untilStart = Duration.between(Instant.now(), startAt);
        Duration timeout = grace.plus(untilStart.isNegative() ? Duration.ZERO : untilStart);
        until(settings, c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT count(DISTINCT worker) FROM " + TABLE
                    + " WHERE run = ? AND step = ? AND worker < ?")) {
                p.setString(1, run);
                p.setString(2, step);
                p.setInt(3, from);
                try (ResultSet rs = p.executeQuery()) {
                    rs.next();
                    return rs.getInt(1) >= from;
                }
            }
        }, timeout, "worker " + share + ": waiting for " + what, out);
    }

    /**
     * Polls {@code condition} on a fresh connection every 500 ms until it holds, printing {@code waiting} at once and
     * every 30 s; after {@code timeout}, one line that says what never came.
     */
    public static void until(ConnectionSettings settings, Condition condition, Duration timeout, String waiting,
                             PrintStream out) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long nextNote = start;
        while (true) {
            try (Connection c = settings.connectForAdmin()) {
                c.setAutoCommit(true);
                if (condition.holds(c)) {
                    return;
                }
            } catch (SQLException e) {
                // not yet: the tables it reads may not exist, or be in the making
            }
            long now = System.nanoTime();
            if (now > deadline) {
                throw new DatabaseUnavailableException(waiting + ": gave up after "
                        + String.format(Locale.ROOT, "%.0f s", timeout.toMillis() / 1000.0), null);
            }
            if (now >= nextNote) {
                out.println(waiting + "...");
                nextNote = now + NOTE_EVERY.toNanos();
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DatabaseUnavailableException(waiting + ": interrupted", e);
            }
        }
    }
}
