package dev.gauntlet.queue.checks;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.queue.workqueue.AckLedger;
import dev.gauntlet.queue.workqueue.AckMode;
import dev.gauntlet.queue.workqueue.IdArrays;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.LongStream;

/**
 * Delivery, verified after a work-queue run: what the ledger says was produced and acknowledged, against the
 * queue. Commits whose outcome never reached their client are settled first, against the database: an
 * acknowledgement took effect when the queue shows the message acknowledged and no other reader is known to have
 * acknowledged it; an insert landed when the message is in the queue or a reader acknowledged it. A produced message
 * is either acknowledged exactly once or still waits unacknowledged in {@code queue_messages} (the backlog); anything
 * else is lost. Then the database must agree with the acknowledgements in the way the {@link AckMode} leaves them:
 * deleted rows gone, archived rows moved once, flagged rows flagged. The verdict is the pub/sub one ({@link DeliveryChecks.Delivery}), so both modes print the same line.
 *
 * <p>Ids go to the database as {@code bigint[]} chunks, a primary-key lookup per id: about a hundred statements for
 * a million ids, no temporary table, no COPY.
 */
public final class QueueDeliveryChecks {

    public static final String PHANTOMS = "no acknowledgement of a message never produced";
    public static final String DELETED = "no acknowledged message left in the queue";
    public static final String ARCHIVED = "every acknowledged message archived exactly once";
    public static final String FLAGGED = "every acknowledged message flagged, and no other";

    /** Ids per statement: large enough that a million take a hundred round trips, small enough for any server. */
    private static final int CHUNK = 10_000;

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

    public static DeliveryChecks.Delivery run(Connection c, AckLedger ledger, AckMode mode) throws SQLException {
        long[] acksLanded = tookEffect(c, ledger.unsettledAcks(), mode);
        ledger.acked(acksLanded); // their commits went through: acknowledged, though the readers never heard it
        long[] uncertainWrites = ledger.unsettledWrites();
        ledger.produced(landed(c, uncertainWrites, ledger.acked(), mode)); // produced, though the writers never heard it
        AckLedger.Tally t = ledger.tally();
        long[] waiting = missing(c, t.unacked(), mode.keepsRows() ? " AND q.acked_at IS NULL" : "");
        long backlog = t.unacked().length - waiting[0];
        long lost = waiting[0] + t.reissued();
        List<Check> checks = new ArrayList<>();
        checks.add(lost == 0 ? Check.pass(DeliveryChecks.LOST, "0 lost of " + n(t.produced()) + " produced")
                : Check.fail(DeliveryChecks.LOST, lostDetail(waiting, t)));
        checks.add(t.duplicates() == 0 ? Check.pass(DeliveryChecks.DUPLICATES, "0 duplicates in "
                        + n(t.acknowledgements()) + " acknowledgements")
                : Check.fail(DeliveryChecks.DUPLICATES, n(t.duplicates()) + " acknowledged more than once, first id "
                        + t.firstDuplicate()));
        checks.add(t.phantoms() == 0 ? Check.pass(PHANTOMS, "0 phantoms")
                : Check.fail(PHANTOMS, n(t.phantoms()) + " acknowledged but never produced, first id "
                        + t.firstPhantom()));
        checks.add(agrees(c, t.acked(), mode));
        return new DeliveryChecks.Delivery(checks, lost, t.duplicates(), backlog, acksLanded.length,
                uncertainWrites.length, 0);
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

    /** Of acknowledgements whose commit's outcome is unknown, the ids the database shows acknowledged. */
    private static long[] tookEffect(Connection c, long[] ids, AckMode mode) throws SQLException {
        return found(c, ids, switch (mode) {
            case DELETE -> "SELECT u.id FROM unnest(?::bigint[]) AS u(id) WHERE NOT EXISTS "
                    + "(SELECT 1 FROM queue_messages q WHERE q.id = u.id)";
            case ARCHIVE -> "SELECT id FROM queue_archive WHERE id = ANY(?)";
            case FLAG -> "SELECT id FROM queue_messages WHERE id = ANY(?) AND acked_at IS NOT NULL";
        });
    }

    /**
     * Of inserts whose commit's outcome is unknown, the ids that were produced: still in the queue (or its archive),
     * or acknowledged by a reader ({@code acked}, sorted), who can only have claimed a message that was there.
     */
    private static long[] landed(Connection c, long[] ids, long[] acked, AckMode mode) throws SQLException {
        long[] inTables = found(c, ids, "SELECT u.id FROM unnest(?::bigint[]) AS u(id) WHERE EXISTS "
                + "(SELECT 1 FROM queue_messages q WHERE q.id = u.id)" + (mode == AckMode.ARCHIVE
                ? " OR EXISTS (SELECT 1 FROM queue_archive a WHERE a.id = u.id)" : ""));
        return LongStream.concat(Arrays.stream(inTables), Arrays.stream(ids)
                .filter(id -> Arrays.binarySearch(acked, id) >= 0)).sorted().distinct().toArray();
    }

    /** The ids {@code sql} (a {@code bigint[]} of {@code ids} in) returns. */
    private static long[] found(Connection c, long[] ids, String sql) throws SQLException {
        if (ids.length == 0) {
            return ids;
        }
        List<Long> found = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setArray(1, IdArrays.of(c, ids));
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getLong(1));
                }
            }
        }
        return found.stream().mapToLong(Long::longValue).toArray();
    }

    /** The database's side of the acknowledgements, as the mode leaves it. */
    private static Check agrees(Connection c, long[] acked, AckMode mode) throws SQLException {
        String name = agreement(mode);
        long[] left = present(c, acked, "queue_messages", mode.keepsRows() ? " AND acked_at IS NULL" : "");
        if (left[0] > 0) {
            return Check.fail(name, n(left[0]) + " acknowledged but still waiting in queue_messages, first id "
                    + left[1]);
        }
        return switch (mode) {
            case DELETE -> Check.pass(name, "none of " + n(acked.length) + " acknowledged in queue_messages");
            case ARCHIVE -> {
                long archived = present(c, acked, "queue_archive", "")[0];
                long rows = count(c, "SELECT count(*) FROM queue_archive");
                yield archived == acked.length && rows == acked.length
                        ? Check.pass(name, n(rows) + " archived, as acknowledged")
                        : Check.fail(name, n(acked.length) + " acknowledged, " + n(archived) + " of them archived, "
                                + n(rows) + " rows in queue_archive");
            }
            case FLAG -> {
                long ackedFlagged = present(c, acked, "queue_messages", " AND acked_at IS NOT NULL")[0];
                long flagged = count(c, "SELECT count(*) FROM queue_messages WHERE acked_at IS NOT NULL");
                yield ackedFlagged == acked.length && flagged == acked.length
                        ? Check.pass(name, n(flagged) + " flagged, as acknowledged")
                        : Check.fail(name, n(acked.length) + " acknowledged, " + n(ackedFlagged) + " of them flagged, "
                                + n(flagged) + " rows flagged");
            }
        };
    }

    /** {how many of {@code ids} have no row in queue_messages matching {@code filter}, the lowest of them or -1}. */
    private static long[] missing(Connection c, long[] ids, String filter) throws SQLException {
        return chunked(c, ids, "SELECT count(*), min(u.id) FROM unnest(?::bigint[]) AS u(id) WHERE NOT EXISTS "
                + "(SELECT 1 FROM queue_messages q WHERE q.id = u.id" + filter + ")");
    }

    /** {how many of {@code ids} have a row in {@code table} matching {@code filter}, the lowest of them or -1}. */
    private static long[] present(Connection c, long[] ids, String table, String filter) throws SQLException {
        return chunked(c, ids, "SELECT count(*), min(id) FROM " + table + " WHERE id = ANY(?)" + filter);
    }

    /** Runs {@code sql} (a {@code bigint[]} in, a count and a lowest id out) over {@code ids} (sorted) in chunks. */
    private static long[] chunked(Connection c, long[] ids, String sql) throws SQLException {
        long total = 0;
        long first = -1;
        try (PreparedStatement p = c.prepareStatement(sql)) {
            for (int from = 0; from < ids.length; from += CHUNK) {
                p.setArray(1, IdArrays.of(c, ids, from, Math.min(ids.length, from + CHUNK)));
                try (ResultSet rs = p.executeQuery()) {
                    rs.next();
                    long n = rs.getLong(1);
                    if (n > 0 && first < 0) {
                        first = rs.getLong(2); // chunks ascend, so the first chunk with any holds the lowest
                    }
                    total += n;
                }
            }
        }
        return new long[] {total, first};
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
