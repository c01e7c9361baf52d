package dev.gauntlet.queue.checks;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.queue.workqueue.AckIds;
import dev.gauntlet.queue.workqueue.AckLedger;
import dev.gauntlet.queue.workqueue.AckMode;
import dev.gauntlet.queue.workqueue.LedgerStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Delivery, verified after a work-queue run: what the ledger says was produced and acknowledged, against the
 * queue. Commits whose outcome never reached their client are settled first, against the database: an
 * acknowledgement took effect when the queue shows the message acknowledged and no other reader is known to have
 * acknowledged it; an insert landed when the message is in the queue or a reader acknowledged it. A produced message
 * is either acknowledged exactly once or still waits unacknowledged in {@code queue_messages} (the backlog); anything
 * else is lost. Then the database must agree with the acknowledgements in the way the {@link AckMode} leaves them:
 * deleted rows gone, archived rows moved once, flagged rows flagged. The verdict is the pub/sub one
 * ({@link DeliveryChecks.Delivery}), so both modes print the same line.
 *
 * <p>The ledger goes to the database as a stream, COPYed from its file into a temporary table ({@link AckIds}), and
 * all of it is compared there, in SQL: the driver holds none of it, whatever the run's length.
 */
public final class QueueDeliveryChecks {

    public static final String PHANTOMS = "no acknowledgement of a message never produced";
    public static final String DELETED = "no acknowledged message left in the queue";
    public static final String ARCHIVED = "every acknowledged message archived exactly once";
    public static final String FLAGGED = "every acknowledged message flagged, and no other";

    private QueueDeliveryChecks() {
    }

    /** The name of the check that the database agrees with the acknowledgements, for {@code mode}. */
    public static String agreement(AckMode mode) {
        return switch (mode) {
            case DELETE -> DELETED;
            case ARCHIVE -> ARCHIVED;
            case FLAG -> FLAGGED;
        };
    }

    /** Delivery, from {@code ledger} (this process's, of a whole run). */
    public static DeliveryChecks.Delivery run(Connection c, AckLedger ledger, AckMode mode) throws SQLException {
        return run(c, ledger, mode, InFlight.NONE);
    }

    /**
     * Delivery, from {@code ledger} of a driver that may have died with commits in flight ({@link InFlight}): settled
     * against the queue as commits whose outcome was lost are ({@link AckIds#settleInFlight}). With {@code --ack
     * delete} an acknowledgement in flight leaves no trace, so messages produced, never heard acknowledged and gone
     * from the queue, no more than the readers had in flight, are neither lost nor delivered as far as anyone can
     * tell: the check is skipped, saying so.
     */
    public static DeliveryChecks.Delivery run(Connection c, AckLedger ledger, AckMode mode, InFlight inFlight)
            throws SQLException {
        try (AckIds ids = AckIds.of(c, ledger)) {
            return run(c, ids, mode, inFlight);
        }
    }

    /** Delivery, from every process's ledger of a split run, as they stored them ({@link LedgerStore}). */
    public static DeliveryChecks.Delivery runOverStored(Connection c, AckMode mode) throws SQLException {
        try (AckIds ids = AckIds.stored(c)) {
            return run(c, ids, mode, InFlight.NONE);
        }
    }

    private static DeliveryChecks.Delivery run(Connection c, AckIds ids, AckMode mode, InFlight inFlight)
            throws SQLException {
        long acksLanded = ids.settleAcks(mode); // their commits went through: acknowledged, though unheard
        long uncertainWrites = ids.settleWrites(mode); // those that landed produced, though the writers never heard
        if (inFlight.driverDied()) {
            long[] settled = ids.settleInFlight(mode, inFlight.readMessages(), inFlight.writeMessages());
            acksLanded += settled[0];
            uncertainWrites += settled[1];
        }
        AckLedger.Tally t = ids.tally();
        long[] waiting = ids.unackedMissing(mode.keepsRows() ? " AND q.acked_at IS NULL" : "");
        long backlog = t.unacked() - waiting[0];
        // --ack delete leaves no trace of an acknowledgement: those the readers had in flight may be any of these.
        boolean untold = inFlight.driverDied() && mode == AckMode.DELETE && waiting[0] > 0
                && waiting[0] <= inFlight.readMessages() && t.reissued() == 0;
        long lost = untold ? 0 : waiting[0] + t.reissued();
        List<Check> checks = new ArrayList<>();
        checks.add(untold ? Check.skip(DeliveryChecks.LOST, n(waiting[0]) + " produced, never heard acknowledged and "
                        + "not in the queue, first id " + waiting[1] + ": no more than the acknowledgements in flight "
                        + "when the driver died (" + inFlight.describe() + ") could have taken, and --ack delete "
                        + "leaves no trace of one; neither proven nor refuted")
                : lost == 0 ? Check.pass(DeliveryChecks.LOST, "0 lost of " + n(t.produced()) + " produced")
                : Check.fail(DeliveryChecks.LOST, lostDetail(waiting, t)));
        checks.add(t.duplicates() == 0 ? Check.pass(DeliveryChecks.DUPLICATES, "0 duplicates in "
                        + n(t.acknowledgements()) + " acknowledgements")
                : Check.fail(DeliveryChecks.DUPLICATES, n(t.duplicates()) + " acknowledged more than once, first id "
                        + t.firstDuplicate()));
        checks.add(t.phantoms() == 0 ? Check.pass(PHANTOMS, "0 phantoms")
                : Check.fail(PHANTOMS, n(t.phantoms()) + " acknowledged but never produced, first id "
                        + t.firstPhantom()));
        checks.add(agrees(c, ids, t.acked(), mode));
        return new DeliveryChecks.Delivery(checks, lost, t.duplicates(), backlog, acksLanded, uncertainWrites, 0,
                untold ? waiting[0] : 0);
    }

    /**
     * What was lost: messages produced, never acknowledged and not in the queue; and messages whose id a later
     * committed insert was given again (the id sequence went back with them, as after a failover to a standby that
     * missed both), so the later message stands where they were and an id-by-id count alone would pass.
     */
    private static String lostDetail(long[] waiting, AckLedger.Tally t) {
        List<String> parts = new ArrayList<>();
        if (waiting[0] > 0) {
            parts.add(n(waiting[0]) + " produced, never acknowledged and not in the queue, first id " + waiting[1]);
        }
        if (t.reissued() > 0) {
            parts.add(n(t.reissued()) + " whose id a later committed insert was given again (the first insert was "
                    + "lost with the id sequence's state), first id " + t.firstReissued());
        }
        return String.join("; ", parts);
    }

    /** The database's side of the {@code acked} distinct ids acknowledged, as the mode leaves it. */
    private static Check agrees(Connection c, AckIds ids, long acked, AckMode mode) throws SQLException {
        String name = agreement(mode);
        long[] left = ids.ackedIn("queue_messages", mode.keepsRows() ? " AND q.acked_at IS NULL" : "");
        if (left[0] > 0) {
            return Check.fail(name, n(left[0]) + " acknowledged but still waiting in queue_messages, first id "
                    + left[1]);
        }
        return switch (mode) {
            case DELETE -> Check.pass(name, "none of " + n(acked) + " acknowledged in queue_messages");
            case ARCHIVE -> {
                long[] missing = ids.ackedNotIn("queue_archive", "");
                long rows = count(c, "SELECT count(*) FROM queue_archive");
                yield missing[0] == 0 && rows == acked
                        ? Check.pass(name, n(rows) + " archived, as acknowledged")
                        : Check.fail(name, n(acked) + " acknowledged, " + n(acked - missing[0])
                                + " of them archived" + firstMissing(missing) + ", " + n(rows)
                                + " rows in queue_archive");
            }
            case FLAG -> {
                long[] missing = ids.ackedNotIn("queue_messages", " AND q.acked_at IS NOT NULL");
                long flagged = count(c, "SELECT count(*) FROM queue_messages WHERE acked_at IS NOT NULL");
                yield missing[0] == 0 && flagged == acked
                        ? Check.pass(name, n(flagged) + " flagged, as acknowledged")
                        : Check.fail(name, n(acked) + " acknowledged, " + n(acked - missing[0])
                                + " of them flagged" + firstMissing(missing) + ", " + n(flagged) + " rows flagged");
            }
        };
    }

    /** {@code " (2 not, first id 42)"}: the acknowledged ids the table does not show so, or nothing. */
    private static String firstMissing(long[] missing) {
        return missing[0] == 0 ? "" : " (" + n(missing[0]) + " not, first id " + missing[1] + ")";
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String n(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }
}
