package dev.gauntlet.trainevents.workload;

import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Operation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * One client's pass through the event lifecycle, as three transactions: {@link Add}, {@link Process},
 * {@link Archive}. The script draws the cycle's batch size and delay; the operations share them and the cycle's
 * start, so the archive, the cycle's last step, can record how long the whole cycle took ({@code cycle}, from the
 * add's intended start) and how long with the delay before it ({@code cycleWithDelay}, dbworkload's
 * {@code __cycle__}).
 */
public final class Lifecycle {

    public static final String ADD = "add";
    public static final String PROCESS = "process";
    public static final String ARCHIVE = "archive";
    public static final String CYCLE = "cycle";
    public static final String CYCLE_WITH_DELAY = "cycleWithDelay";
    static final String LOCK_HOLD = "lockHold";

    private final Variant variant;
    /** The statements, made once: a string built per call is a new key for the driver's statement cache to hash. */
    private final String addSql;
    private final String processSql;
    private static final String CLAIM_SQL = Variant.claimSql();
    private static final String ARCHIVE_SQL = Variant.archiveSql();
    private final EventLedger ledger;
    private final SplittableRandom random;
    private final double failShare;
    private final long lockHoldNanos;
    final Add add = new Add();
    final Process process = new Process();
    final Archive archive = new Archive();

    private int batch;
    private long delayNanos;
    private long cycleStart;

    Lifecycle(Variant variant, EventLedger ledger, SplittableRandom random, double failShare, long lockHoldNanos) {
        this.variant = variant;
        this.addSql = variant.addSql();
        this.processSql = variant.processSql();
        this.ledger = ledger;
        this.random = random;
        this.failShare = failShare;
        this.lockHoldNanos = lockHoldNanos;
    }

    /**
     * Leaves {@code session}'s statement cache as a whole cycle leaves it: the add's statement least recently used,
     * then the process's and the archive's, each borrowed and given back once. A priming run apart ends its clients
     * mid-cycle; a measured-run client then asked the cache of its session for a statement that was not the least
     * recently used one, down a path of the cache's (inlined into the operations' compiled code) that no client had
     * taken, and the operations were compiled again in the measured minute. Not the {@code --lock-hold} statements.
     */
    public static void endCycle(Connection session, Variant variant) throws SQLException {
        for (String sql : new String[] {variant.addSql(), variant.processSql(), ARCHIVE_SQL}) {
            session.prepareStatement(sql).close();
        }
    }

    /** A new cycle: {@code batch} events to add, after {@code delayNanos}. */
    void begin(int batchSize, long delay) {
        batch = batchSize;
        delayNanos = delay;
    }

    /** Adds the cycle's batch of new events and their PENDING status rows in one statement, in auto-commit. */
    final class Add implements Operation<Connection> {
        @Override
        public String name() {
            return ADD;
        }

        @Override
        public Commit commit() {
            return Commit.IMPLICIT;
        }

        @Override
        public void execute(Connection c, Attempt attempt) throws Exception {
            cycleStart = attempt.intendedEpochNanos();
            EventBatch events = EventBatch.draw(random, batch, cycleStart / 1_000_000);
            int n = events.size();
            // Said before the statement runs: in auto-commit, a connection lost while it runs (the request sent, the
            // answer lost) leaves these events maybe added, and the ledger must know their ids.
            attempt.afterCommit(() -> ledger.added(events.ids, n));
            attempt.ifCommitUnknown(() -> ledger.maybeAdded(events.ids, n));
            try (PreparedStatement ps = c.prepareStatement(addSql)) {
                events.bind(ps, c);
                int statuses = ps.executeUpdate();
                if (statuses != n) {
                    throw new IllegalStateException("adding " + n + " events wrote " + statuses + " status rows");
                }
            }
            attempt.count("events", n);
        }
    }

    /**
     * Claims the oldest PENDING and PROCESSING events no one else holds (up to three times the cycle's batch, so
     * processing can work off a backlog, each event passing through twice), applies the business rule to each
     * payload, and advances the state machine: PENDING to PROCESSING, PROCESSING to COMPLETE, or FAILED for a share.
     * One statement in auto-commit ({@link Variant#processSql()}): locks are held only as long as the statement runs.
     * With {@code --lock-hold}, a transaction of two: the claim, a pause holding the locks (recorded apart as
     * {@code lockHold}), then the step.
     */
    final class Process implements Operation<Connection> {
        @Override
        public String name() {
            return PROCESS;
        }

        @Override
        public Commit commit() {
            return lockHoldNanos > 0 ? Commit.EXPLICIT : Commit.IMPLICIT;
        }

        @Override
        public void execute(Connection c, Attempt attempt) throws Exception {
            int limit = 3 * batch;
            long processedAt = attempt.intendedEpochNanos() / 1_000_000;
            PreparedStatement step;
            if (lockHoldNanos > 0) {
                step = claimAndHold(c, limit, attempt);
                if (step == null) {
                    attempt.count("emptyClaims", 1);
                    return;
                }
                step.setLong(3, processedAt);
            } else {
                step = c.prepareStatement(processSql);
                step.setInt(1, limit);
                step.setDouble(2, failShare);
                step.setLong(3, processedAt);
            }
            UUID[] ids = new UUID[limit];
            byte[] reached = new byte[limit];
            int n = 0;
            long edited = 0;
            int completed = 0;
            int failed = 0;
            try (step; ResultSet rs = step.executeQuery()) {
                while (rs.next()) {
                    if (n == limit) {
                        throw new IllegalStateException("processing up to " + limit + " events advanced more");
                    }
                    ids[n] = rs.getObject(1, UUID.class);
                    reached[n] = EventLedger.state(rs.getString(2));
                    completed += reached[n] == EventLedger.COMPLETE ? 1 : 0;
                    failed += reached[n] == EventLedger.FAILED ? 1 : 0;
                    edited = rs.getLong(3);
                    n++;
                }
            }
            if (n == 0) {
                attempt.count("emptyClaims", 1);
                return;
            }
            expect(edited, n, "edited the payloads of");
            UUID[] advanced = Arrays.copyOf(ids, n);
            attempt.count("events", n);
            attempt.count("completed", completed);
            attempt.count("failed", failed);
            attempt.afterCommit(() -> ledger.processed(advanced, reached, advanced.length));
            attempt.ifCommitUnknown(() -> ledger.maybeProcessed(advanced, reached, advanced.length));
        }

        /**
         * Claims and pauses holding the locks; returns the step for the claimed events, bound but for the processing
         * time, or null when there was nothing to claim.
         */
        private PreparedStatement claimAndHold(Connection c, int limit, Attempt attempt) throws Exception {
            UUID[] ids = new UUID[limit];
            String[] next = new String[limit];
            int n = 0;
            try (PreparedStatement claim = c.prepareStatement(CLAIM_SQL)) {
                claim.setInt(1, limit);
                try (ResultSet rs = claim.executeQuery()) {
                    while (rs.next()) {
                        ids[n] = rs.getObject(1, UUID.class);
                        next[n] = rs.getString(2).equals("PENDING") ? "PROCESSING"
                                : random.nextDouble() < failShare ? "FAILED" : "COMPLETE";
                        n++;
                    }
                }
            }
            if (n == 0) {
                return null;
            }
            Thread.sleep(lockHoldNanos / 1_000_000, (int) (lockHoldNanos % 1_000_000));
            attempt.latency(LOCK_HOLD, lockHoldNanos);
            PreparedStatement step = c.prepareStatement(variant.claimedStepSql());
            step.setArray(1, c.createArrayOf("uuid", Arrays.copyOf(ids, n)));
            step.setArray(2, c.createArrayOf("text", Arrays.copyOf(next, n)));
            return step;
        }
    }

    /**
     * Moves terminal events (COMPLETE and FAILED) to the archive and deletes them, in one statement in auto-commit,
     * which returns the ids it moved for the ledger.
     */
    final class Archive implements Operation<Connection> {
        @Override
        public String name() {
            return ARCHIVE;
        }

        @Override
        public Commit commit() {
            return Commit.IMPLICIT;
        }

        @Override
        public void execute(Connection c, Attempt attempt) throws Exception {
            int limit = 2 * batch;
            UUID[] moved = new UUID[limit];
            int n = 0;
            try (PreparedStatement ps = c.prepareStatement(ARCHIVE_SQL)) {
                ps.setInt(1, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if (n == limit) {
                            throw new IllegalStateException("archiving up to " + limit + " events moved more");
                        }
                        moved[n++] = rs.getObject(1, UUID.class);
                    }
                }
            }
            attempt.count("events", n);
            if (n > 0) {
                int archived = n;
                attempt.afterCommit(() -> ledger.archived(moved, archived));
                attempt.ifCommitUnknown(() -> ledger.maybeArchived(moved, archived));
            }
            attempt.latencySince(CYCLE, cycleStart);
            attempt.latencySince(CYCLE_WITH_DELAY, cycleStart - delayNanos);
        }
    }

    private static void expect(long touched, int claimed, String what) {
        if (touched != claimed) {
            throw new IllegalStateException(what + " " + touched + " of the " + claimed
                    + " events this client claimed and holds locked: the tables changed under it");
        }
    }
}
