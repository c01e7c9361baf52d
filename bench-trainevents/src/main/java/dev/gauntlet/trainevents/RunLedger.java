package dev.gauntlet.trainevents;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.RecoveredRun;
import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.trainevents.checks.EventChecks;
import dev.gauntlet.trainevents.workload.EventLedger;
import dev.gauntlet.trainevents.workload.Variant;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * {@code check --ledger DIR}: the event checks a run makes at its end ({@link EventChecks#run}), made again from the
 * ledger it left in its directory ({@value EventLedger#FILE}) against the tables as they are now; for a run whose
 * driver died before it could check, or to check again later. The tables must be of the variant the run recorded.
 *
 * <p>Every check but one asks only what the ledger holds (each event it heard added is there, none is behind a step
 * it heard commit), so it stands on any part of a run's adds. {@value EventChecks#NOT_ADDED} needs all of them and
 * is skipped, saying why, where the ledger cannot have them: one process's of a run split between processes
 * ({@code --worker}: the others added events too; worker 0 checked it over every process's ledger), or a driver's
 * that died (an add whose commit it had sent may have landed unheard).
 */
final class RunLedger {

    private RunLedger() {
    }

    static List<Check> checks(Connection c, Variant loaded, Path dir) throws SQLException {
        EventLedger ledger = EventLedger.read(dir);
        if (ledger == null) {
            throw new BadInputException(dir + " holds no " + EventLedger.FILE + " (what a run of bench-trainevents "
                    + "heard commit, event by event, kept in its directory)");
        }
        Map<String, Object> recorded = RecoveredRun.recordedParameters(dir);
        Object variant = recorded.get(RunCommand.VARIANT);
        if (variant != null && !loaded.label().equals(variant.toString())) {
            throw new BadInputException("the run in " + dir + " was of the " + variant + " variant and the database "
                    + "holds the " + loaded + " tables: not the tables that run left (every run starts from tables "
                    + "of its own: a later run or init replaced them)");
        }
        System.out.printf("Events: %,d added (%,d uncertain), %,d process and archive steps heard commit, in the "
                + "ledger%n", ledger.size(), ledger.uncertainSize(), ledger.stepsSize());
        return EventChecks.run(c, loaded, ledger, partial(dir, recorded));
    }

    /** Why the ledger in {@code dir} may lack some of the run's adds, or null when it holds them all. */
    private static String partial(Path dir, Map<String, Object> recorded) {
        Object share = recorded.get(WorkerShare.PARAMETER);
        if (share != null && !WorkerShare.parse(share.toString()).whole()) {
            return "worker " + share + "'s ledger alone: the other processes added events too (worker 0 checked "
                    + "this over every process's ledger)";
        }
        if (RecoveredRun.driverDied(dir)) {
            return "the driver died: an add whose commit it had sent may be in the tables and not in its ledger";
        }
        return null;
    }
}
