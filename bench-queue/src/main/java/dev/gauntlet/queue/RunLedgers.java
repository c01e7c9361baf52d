package dev.gauntlet.queue;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.RecoveredRun;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.queue.checks.DeliveryChecks;
import dev.gauntlet.queue.checks.InFlight;
import dev.gauntlet.queue.checks.QueueDeliveryChecks;
import dev.gauntlet.queue.pubsub.DeliveryLedger;
import dev.gauntlet.queue.pubsub.WriterLedger;
import dev.gauntlet.queue.schema.LogSchema;
import dev.gauntlet.queue.workqueue.AckLedger;
import dev.gauntlet.queue.workqueue.AckMode;
import dev.gauntlet.queue.workqueue.LedgerStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code check --ledger DIR}: the delivery checks a run makes at its end ({@link Mode#verify}), made again from the
 * ledgers it left in its directory against the tables as they are now; for a run whose driver died before it could
 * check, or to check again later. The ledger files say which mode ran (pub/sub's {@value DeliveryLedger#FILE} and
 * {@value WriterLedger#FILE}, a work queue's {@value AckLedger#FILE}; the run's recorded {@code mode} where a reused
 * directory holds both), the tables how a queue acknowledges.
 *
 * <p>A run whose driver died ({@link RecoveredRun}: its {@value RecoveredRun#STARTED} left, or its result recovered)
 * may have left each client's last commit in the tables and not in the ledger, which records a commit once it is
 * heard: those are settled against the tables, within what its clients could have had in flight ({@link InFlight},
 * from the run's recorded writers, readers and batch sizes), as a run settles the commits whose outcome it heard was
 * lost.
 *
 * <p>One process's directory of a run split between processes ({@code --worker}): pub/sub is checked over that
 * process's partitions, which its ledgers cover whole; a work queue is refused, as its readers took every process's
 * messages (worker 0 verified delivery over every process's ledger, gathered in {@value LedgerStore#TABLE}).
 */
final class RunLedgers {

    /** The files {@code check --ledger} looks for, as its refusal names them. */
    static final String EXPECTED = DeliveryLedger.FILE + " and " + WriterLedger.FILE + " (pub/sub) or "
            + AckLedger.FILE + " (a work queue)";

    private RunLedgers() {
    }

    /** The checks of the ledgers in {@code dir} against the tables {@code found}; prints the delivery line, as a run. */
    static List<Check> checks(Connection c, QueueTables.Found found, Path dir) throws SQLException {
        Map<String, Object> recorded = RecoveredRun.recordedParameters(dir);
        boolean pubsub = pubsub(dir, recorded);
        InFlight inFlight = inFlight(dir, recorded, pubsub);
        if (inFlight.driverDied()) {
            System.out.println("The driver died: its clients' last commits, sent and never heard back, are settled "
                    + "against the tables, up to " + (pubsub ? String.format(Locale.ROOT, "a batch of %d from each "
                    + "of %d writers and a read of %d per group and partition", inFlight.writeBatch(),
                    inFlight.writers(), inFlight.readBatch()) : inFlight.describe()) + ".");
        }
        DeliveryChecks.Delivery delivery = pubsub ? pubsub(c, found, dir, inFlight)
                : queue(c, found, dir, recorded, inFlight);
        System.out.println(delivery.line());
        return delivery.checks();
    }

    /**
     * What the driver of the run in {@code dir} may have had in flight: nothing when the run finished; each client's
     * last commit when it died (a pub/sub group's partition is read by one reader at a time).
     */
    private static InFlight inFlight(Path dir, Map<String, Object> recorded, boolean pubsub) {
        if (!RecoveredRun.driverDied(dir)) {
            return InFlight.NONE;
        }
        return new InFlight(number(dir, recorded, "writers"), number(dir, recorded, "writeBatch"),
                pubsub ? 1 : number(dir, recorded, "readers"), number(dir, recorded, "readBatch"));
    }

    private static int number(Path dir, Map<String, Object> recorded, String parameter) {
        Object value = recorded.get(parameter);
        try {
            return value instanceof Number n ? n.intValue() : Integer.parseInt(String.valueOf(value));
        } catch (NumberFormatException e) {
            throw new BadInputException("the run in " + dir + " died and recorded no " + parameter + " (got "
                    + value + "): what its driver had in flight cannot be told", e);
        }
    }

    /** Whether {@code dir} holds a pub/sub run's ledgers rather than a work queue's; refuses one that holds neither. */
    private static boolean pubsub(Path dir, Map<String, Object> recorded) {
        boolean pubsub = has(dir, DeliveryLedger.FILE) || has(dir, WriterLedger.FILE);
        boolean queue = has(dir, AckLedger.FILE);
        if (!pubsub && !queue) {
            throw new BadInputException(dir + " holds none of bench-queue's ledgers: " + EXPECTED + ", which a run "
                    + "keeps in its directory");
        }
        if (pubsub && queue) {
            Object mode = recorded.get("mode");
            if (mode == null) {
                throw new BadInputException(dir + " holds the ledgers of both modes (" + EXPECTED + ") and no "
                        + ResultFile.NAME + " or " + RecoveredRun.STARTED + " to say which ran last");
            }
            return ModeOptions.PUBSUB.equals(mode.toString());
        }
        return pubsub;
    }

    private static DeliveryChecks.Delivery pubsub(Connection c, QueueTables.Found found, Path dir,
                                                  InFlight inFlight) throws SQLException {
        for (String file : List.of(DeliveryLedger.FILE, WriterLedger.FILE)) {
            if (!has(dir, file)) {
                throw new BadInputException(dir + " holds a pub/sub run's ledger without " + file + ": both "
                        + DeliveryLedger.FILE + " and " + WriterLedger.FILE + " are needed");
            }
        }
        if (found.partitions() == 0) {
            throw new BadInputException(dir + " holds a pub/sub run's ledgers and the database no log: "
                    + notItsTables());
        }
        DeliveryLedger ledger = DeliveryLedger.read(dir);
        int groups = LogSchema.groups(c);
        if (ledger.partitions().to() > found.partitions() || ledger.groups() != groups) {
            throw new BadInputException("the ledgers in " + dir + " are of " + ledger.groups() + " groups over "
                    + "partitions " + ledger.partitions().from() + "-" + (ledger.partitions().to() - 1)
                    + "; the log has " + groups + " groups over " + found.partitions() + " partitions: "
                    + notItsTables());
        }
        return DeliveryChecks.run(c, ledger, inFlight);
    }

    private static DeliveryChecks.Delivery queue(Connection c, QueueTables.Found found, Path dir,
                                                 Map<String, Object> recorded, InFlight inFlight) throws SQLException {
        AckMode ack = found.ack();
        if (ack == null) {
            throw new BadInputException(dir + " holds a work queue's ledger and the database no queue: "
                    + notItsTables());
        }
        Object share = recorded.get(WorkerShare.PARAMETER);
        if (share != null && !WorkerShare.parse(share.toString()).whole()) {
            throw new BadInputException(dir + " is worker " + share + "'s of a work queue split between processes "
                    + "(--worker): its readers took every process's messages, so its ledger alone cannot prove "
                    + "delivery; worker 0 verified it over every process's ledger, gathered in " + LedgerStore.TABLE);
        }
        Object recordedAck = recorded.get("ack");
        if (recordedAck != null && !ack.label().equals(recordedAck.toString())) {
            throw new BadInputException("the run in " + dir + " acknowledged by " + recordedAck + " and the queue "
                    + "in the database by " + ack.label() + ": " + notItsTables());
        }
        return QueueDeliveryChecks.run(c, AckLedger.read(dir), ack, inFlight);
    }

    private static String notItsTables() {
        return "not the tables that run left (every run starts from tables of its own: a later run or init replaced "
                + "them)";
    }

    private static boolean has(Path dir, String file) {
        return Files.isRegularFile(dir.resolve(file));
    }
}
