package dev.gauntlet.trainevents.workload;

import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Operation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
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
        this.ledger = ledger;
        this.random = random;
        this.failShare = failShare;
        this.lockHoldNanos = lockHoldNanos;
    }

    /** A new cycle: {@code batch} events to add, after {@code delayNanos}. */
    void begin(int batchSize, long delay) {
        batch = batchSize;
        delayNanos = delay;
    }

    /** Adds the cycle's batch of new events and their PENDING status rows in one statement. */
    final class Add implements Operation<Connection> {
        @Override
        public String name() {
            return ADD;
        }

        @Override
        public void execute(Connection c, Attempt attempt) throws Exception {
            cycleStart = attempt.intendedEpochNanos();
            EventBatch events = EventBatch.draw(random, batch, cycleStart / 1_000_000);
            int n = events.size();
            try (PreparedStatement ps = c.prepareStatement(variant.addSql())) {
                events.bind(ps, c);
                int statuses = ps.executeUpdate();
                if (statuses != n) {
                    throw new IllegalStateException("adding " + n + " events wrote " + statuses + " status rows");
                }
            }
            attempt.count("events", n);
            attempt.afterCommit(() -> ledger.added(events.ids, n));
            attempt.ifCommitUnknown(() -> ledger.maybeAdded(events.ids, n));
        }
    }

    /**
     * Claims the oldest PENDING and PROCESSING events no one else holds (up to three times the cycle's batch, so
     * processing can work off a backlog, each event passing through twice), applies the business rule to each
     * payload, and advances the state machine: PENDING to PROCESSING, PROCESSING to COMPLETE, or FAILED for a share.
     * Locks are held only as long as the work takes, unless {@code --lock-hold} asks for a pause while holding them
     * (recorded apart as {@code lockHold}).
     */
    final class Process implements Operation<Connection> {
        @Override
        public String name() {
            return PROCESS;
        }

        @Override
        public void execute(Connection c, Attempt attempt) throws Exception {
            int limit = 3 * batch;
            UUID[] ids = new UUID[limit];
            String[] next = new String[limit];
            byte[] reached = new byte[limit];
            int n = 0;
            int completed = 0;
            int failed = 0;
            try (PreparedStatement claim = c.prepareStatement(Variant.claimSql())) {
                claim.setInt(1, limit);
                try (ResultSet rs = claim.executeQuery()) {
                    while (rs.next()) {
                        ids[n] = rs.getObject(1, UUID.class);
                        String state = rs.getString(2);
                        if (state.equals("PENDING")) {
                            reached[n] = EventLedger.PROCESSING;
                        } else if (random.nextDouble() < failShare) {
                            reached[n] = EventLedger.FAILED;
                            failed++;
                        } else {
                            reached[n] = EventLedger.COMPLETE;
                            completed++;
                        }
                        next[n] = EventLedger.STATES[reached[n]];
                        n++;
                    }
                }
            }
            if (n == 0) {
                attempt.count("emptyClaims", 1);
                return;
            }
            if (lockHoldNanos > 0) {
                Thread.sleep(lockHoldNanos / 1_000_000, (int) (lockHoldNanos % 1_000_000));
                attempt.latency(LOCK_HOLD, lockHoldNanos);
            }
            UUID[] claimed = Arrays.copyOf(ids, n);
            try (PreparedStatement step = c.prepareStatement(variant.processSql())) {
                step.setArray(1, c.createArrayOf("uuid", claimed));
                step.setArray(2, c.createArrayOf("text", Arrays.copyOf(next, n)));
                step.setLong(3, attempt.intendedEpochNanos() / 1_000_000);
                try (ResultSet rs = step.executeQuery()) {
                    rs.next();
                    expect(rs.getInt(1), n, "edited");
                    expect(rs.getInt(2), n, "advanced");
                }
            }
            attempt.count("events", n);
            attempt.count("completed", completed);
            attempt.count("failed", failed);
            attempt.afterCommit(() -> ledger.processed(claimed, reached, claimed.length));
            attempt.ifCommitUnknown(() -> ledger.maybeProcessed(claimed, reached, claimed.length));
        }
    }

    /**
     * Moves terminal events (COMPLETE and FAILED) to the archive and deletes them, in one statement, which returns the
     * ids it moved for the ledger.
     */
    final class Archive implements Operation<Connection> {
        @Override
        public String name() {
            return ARCHIVE;
        }

        @Override
        public void execute(Connection c, Attempt attempt) throws Exception {
            int limit = 2 * batch;
            UUID[] moved = new UUID[limit];
            int n = 0;
            try (PreparedStatement ps = c.prepareStatement(Variant.archiveSql())) {
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

    private static void expect(int touched, int claimed, String what) {
        if (touched != claimed) {
            throw new IllegalStateException(what + " " + touched + " of the " + claimed
                    + " events this client claimed and holds locked: the tables changed under it");
        }
    }
}
