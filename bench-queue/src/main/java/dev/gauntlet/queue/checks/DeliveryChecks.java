package dev.gauntlet.queue.checks;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.queue.pubsub.DeliveryLedger;
import dev.gauntlet.queue.pubsub.PubSubWorkload;
import dev.gauntlet.queue.pubsub.WriterLedger;
import dev.gauntlet.sql.check.CheckScope;
import dev.gauntlet.sql.check.SqlCheck;
import dev.gauntlet.sql.check.SqlChecks;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Delivery, verified after a pub/sub run: the log is gapless (a table of checks, one query for offenders each); every
 * batch the writers heard commit is in the log at the offsets it was written to, each message carrying the batch's
 * producer sequence (or was, until retention deleted it); and every group's committed offsets agree with what its
 * readers say they read, with no message lost or read twice. The ledgers are read from their files as streams: the
 * writers' into the database beside the log, the readers' through the driver once ({@link DeliveryLedger#tallies}).
 */
public final class DeliveryChecks {

    public static final String WRITTEN = "every batch the writers heard commit is in the log, as written";
    public static final String LOST = "no message lost";
    public static final String DUPLICATES = "no message delivered twice";
    public static final String OFFSETS = "committed offsets match what the readers read";

    private DeliveryChecks() {
    }

    /**
     * The verdict: the checks, and the totals the summary line prints.
     *
     * @param lost            messages lost: never read by a group (pub/sub, summed over groups), or produced and
     *                        neither acknowledged nor in the queue
     * @param backlog         messages produced and not yet consumed
     * @param uncertainReads  messages read (or acknowledged) by a commit whose outcome the reader never heard, and
     *                        that took effect
     * @param uncertainWrites messages written by a commit whose outcome the writer never heard, landed or not
     * @param missingWrites   messages of batches the writers heard commit that the log does not hold where they
     *                        were written (pub/sub)
     * @param untold          messages neither proven delivered nor lost: produced, never heard acknowledged and
     *                        gone from a queue that acknowledges by deleting, no more than the acknowledgements in
     *                        flight when the driver died could have taken ({@link InFlight})
     */
    public record Delivery(List<Check> checks, long lost, long duplicates, long backlog, long uncertainReads,
                           long uncertainWrites, long missingWrites, long untold) {

        public boolean passed() {
            return checks.stream().noneMatch(k -> k.status() == Check.Status.FAIL);
        }

        /**
         * {@code Delivery: PASS (0 lost, 0 duplicates, 1,200 not yet consumed)}, and what else is not zero; NOT
         * PROVEN where nothing failed and some messages are {@link #untold}.
         */
        public String line() {
            String verdict = !passed() ? "FAIL" : untold > 0 ? "NOT PROVEN" : "PASS";
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                    "Delivery: %s (%,d lost, %,d duplicates, %,d not yet consumed", verdict, lost, duplicates,
                    backlog));
            if (untold > 0) {
                line.append(String.format(Locale.ROOT, ", %,d gone with acknowledgements that may have been in "
                        + "flight when the driver died", untold));
            }
            if (missingWrites > 0) {
                line.append(String.format(Locale.ROOT, ", %,d the writers heard commit missing from the log",
                        missingWrites));
            }
            if (uncertainReads > 0) {
                line.append(String.format(Locale.ROOT, ", %,d read by a commit whose outcome the reader never heard",
                        uncertainReads));
            }
            if (uncertainWrites > 0) {
                line.append(String.format(Locale.ROOT, ", %,d written by a commit whose outcome the writer never "
                        + "heard", uncertainWrites));
            }
            return line.append(')').toString();
        }
    }

    /**
     * The log's own invariants, per partition of {@code partitions}: every offset from where retention left it to the
     * tip is there, and none outside.
     */
    public static List<SqlCheck> table(WorkerShare.Range partitions) {
        List<SqlCheck> checks = new ArrayList<>();
        for (int p = partitions.from(); p < partitions.to(); p++) {
            String t = PubSubWorkload.partitionTable(p);
            String bounds = "(SELECT next_offset FROM log_tip WHERE partition = " + p + ") AS tip, "
                    + "(SELECT first_offset FROM log_retention WHERE partition = " + p + ") AS first";
            checks.add(SqlCheck.named(t + " holds every offset from its first retained to its tip")
                    .violations("SELECT first, tip, (SELECT count(*) FROM " + t + " WHERE msg_offset >= b.first AND "
                            + "msg_offset < b.tip) AS messages FROM (SELECT " + bounds + ") b WHERE (SELECT count(*) "
                            + "FROM " + t + " WHERE msg_offset >= b.first AND msg_offset < b.tip) <> b.tip - b.first")
                    .rowKey("tip").build());
            checks.add(SqlCheck.named(t + " has no offset outside its retained range")
                    .violations("SELECT msg_offset FROM " + t + ", (SELECT " + bounds + ") b "
                            + "WHERE msg_offset < b.first OR msg_offset >= b.tip")
                    .rowKey("msg_offset").build());
        }
        return checks;
    }

    /**
     * The log's checks, then the writers' ledger against what the log holds, then what the ledger says about each
     * group, against the committed offsets.
     */
    public static Delivery run(Connection c, DeliveryLedger ledger) throws SQLException {
        return run(c, ledger, InFlight.NONE);
    }

    /**
     * The checks of {@link #run(Connection, DeliveryLedger)}, of a ledger whose driver may have died with commits in
     * flight ({@link InFlight}): a group's committed offset ahead of what its ledger says it read, by no more than a
     * read, was read by a commit in flight (one reader holds a group's partition at a time); batches under sequences
     * the ledger never recorded, no more than the writers had in flight, were written by commits in flight. Both are
     * counted as commits whose outcome was never heard.
     */
    public static Delivery run(Connection c, DeliveryLedger ledger, InFlight inFlight) throws SQLException {
        List<Check> checks = new ArrayList<>(SqlChecks.run(c, table(ledger.partitions()), CheckScope.all()));
        WriterLedger.Tally writes = ledger.writes().tally(c, ledger.partitions(), inFlight.writers(),
                inFlight.writeBatch());
        checks.add(written(writes));
        long lost = 0;
        long duplicates = 0;
        long backlog = 0;
        long uncertain = 0;
        List<String> disagree = new ArrayList<>();
        String firstLost = null;
        for (DeliveryLedger.Tally t : ledger.tallies()) {
            lost += t.lost();
            duplicates += t.duplicates();
            uncertain += t.uncertain();
            if (t.lost() > 0 && firstLost == null) {
                firstLost = "group " + (t.group() + 1) + " partition " + t.partition();
            }
            long[] offsets = offsets(c, t.group(), t.partition());
            backlog += offsets[1] - offsets[0];
            long unheard = offsets[0] - t.reached();
            if (unheard > 0 && unheard <= inFlight.readBatch() && inFlight.driverDied()) {
                uncertain += unheard; // read by the group's commit in flight when the driver died
            } else if (unheard != 0) {
                disagree.add("group " + (t.group() + 1) + " partition " + t.partition() + ": committed " + offsets[0]
                        + ", read up to " + t.reached());
            }
        }
        checks.add(lost == 0 ? Check.pass(LOST, "0 lost") : Check.fail(LOST, lost + " lost, first in " + firstLost));
        checks.add(duplicates == 0 ? Check.pass(DUPLICATES, "0 duplicates")
                : Check.fail(DUPLICATES, duplicates + " delivered more than once"));
        checks.add(disagree.isEmpty()
                ? Check.pass(OFFSETS, backlog + " messages produced but not yet consumed (summed over groups)")
                : Check.fail(OFFSETS, String.join("; ", disagree.subList(0, Math.min(3, disagree.size())))));
        return new Delivery(checks, lost, duplicates, backlog, uncertain, writes.uncertainMessages(),
                writes.lostMessages(), 0);
    }

    /** The writers' ledger's check: the lost batches named, and any message no writer wrote where it is. */
    private static Check written(WriterLedger.Tally w) {
        String uncertain = w.uncertainBatches() == 0 ? "" : String.format(Locale.ROOT, "; %,d batches whose commit's "
                + "outcome the writer never heard, %,d of them in the log", w.uncertainBatches(), w.landed());
        if (w.lostBatches() == 0 && w.foreign() == 0) {
            return Check.pass(WRITTEN, String.format(Locale.ROOT, "%,d batches (%,d messages) at their offsets%s",
                    w.batches(), w.messages(), uncertain));
        }
        List<String> problems = new ArrayList<>();
        if (w.lostBatches() > 0) {
            problems.add(String.format(Locale.ROOT, "%,d batches the writers heard commit are not all in the log "
                            + "(%,d messages missing): %s%s", w.lostBatches(), w.lostMessages(),
                    w.named().stream().map(WriterLedger.LostBatch::toString).collect(Collectors.joining("; ")),
                    w.lostBatches() > w.named().size() ? "; and " + (w.lostBatches() - w.named().size()) + " more"
                            : ""));
        }
        if (w.foreign() > 0) {
            problems.add(String.format(Locale.ROOT, "%,d messages not as the writers wrote them (at offsets their "
                    + "batch was not written to, or more of a batch than it had), first: %s", w.foreign(),
                    w.firstForeign()));
        }
        return Check.fail(WRITTEN, String.join("; ", problems) + uncertain);
    }

    /** {committed offset of the group, tip of the partition}. */
    private static long[] offsets(Connection c, int group, int partition) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT o.next_offset, t.next_offset FROM consumer_offsets o "
                + "JOIN log_tip t USING (partition) WHERE o.grp = ? AND o.partition = ?")) {
            p.setInt(1, group);
            p.setInt(2, partition);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
    }
}
