package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.DurationConverter;
import dev.gauntlet.core.cli.PrimeOutcome;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.run.PhasePlan;
import dev.gauntlet.core.run.Probe;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.core.run.Runner;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.sql.JdbcTarget;
import dev.gauntlet.sql.SqlStates;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The priming of a workload whose tables can be kept and put back ({@link PrimingApart}), run apart: its clients run
 * as they will in a run of their own, unmeasured, until the driver's compilers settle; then the tables are put back as
 * the priming found them and the measured run starts with no priming of its own. A priming inside the run leaves what
 * it wrote in the tables the run measures (bench-trainevents' jsonb events grew to 0.9 GB in the 53 s its compilers
 * took to settle), so it was cut to a quarter of the run, and the compilers then worked through the measured minute;
 * apart, it can last until they settle.
 */
final class ApartPriming {

    /**
     * How long the restore may take on its session of the workload's, in place of the session's socket timeout (30 s
     * for benchmark sessions): a restore waits for every transaction still using the tables (a TRUNCATE does), and a
     * priming can leave statements running for tens of seconds (bench-trainevents' jsonb GIN pending-list merges: in
     * the 3 x 3 matrix of 2026-11-28 its jsonb / PgBouncer cell failed here with its session closed). A bound, not
     * none: a socket without a timeout reads down another path of the JDK's than the workload's.
     */
    static final Duration RESTORE_TIMEOUT = Duration.ofMinutes(10);

    private final RunPlan plan;
    private final Duration limit;

    /** For {@code plan}'s priming, lasting up to {@code limit} apart (its condition, e.g. the compilers settling, kept). */
    ApartPriming(RunPlan plan, Duration limit) {
        this.plan = plan;
        this.limit = limit;
    }

    /** Whether the plan has a priming to run apart. */
    boolean applies() {
        return !plan.prime().isZero();
    }

    /** The measured run's plan: the same without its priming. */
    RunPlan measured() {
        return plan.toBuilder().prime(Duration.ZERO).build();
    }

    /** How the result records it (the parameter {@code prime}), the same for every run primed alike. */
    String describe() {
        return "apart, " + span() + "; the tables restored after it";
    }

    /** "2s", or "until the compilers settle, at most 1m". */
    private String span() {
        return plan.primeUntil() == null ? DurationConverter.format(limit)
                : "until " + plan.primeUntil() + ", at most " + DurationConverter.format(limit);
    }

    /** Work on a connection. */
    @FunctionalInterface
    interface SqlConsumer {
        void accept(Connection c) throws SQLException;
    }

    /**
     * {@code restore} on {@code c} with the socket timeout widened to {@link #RESTORE_TIMEOUT}, and the session's own
     * put back after it. A session lost meanwhile stays lost: its own error is the one to tell, not "closed" from
     * putting the timeout back.
     */
    static void restoreWaiting(Connection c, SqlConsumer restore) throws SQLException {
        int sessionTimeout = c.getNetworkTimeout();
        c.setNetworkTimeout(Runnable::run, (int) RESTORE_TIMEOUT.toMillis());
        try {
            restore.accept(c);
        } finally {
            if (!c.isClosed()) {
                c.setNetworkTimeout(Runnable::run, sessionTimeout);
            }
        }
    }

    /**
     * Runs the priming with {@code workload}'s clients against {@code target}, then {@code restore} on one of its
     * connections (kept by the target, so no new connection's handshake runs through code the workload has compiled;
     * its socket timeout widened meanwhile: {@link #restoreWaiting}),
     * then {@code settle} on each connection the measured run will take ({@link PrimingApart#settle});
     * says both on {@code out}; returns how a priming that waits for its condition ended (null for a fixed one). {@code probes} are the measured run's own, left open for it: they make their
     * connections during the priming. When the measured run's probes were new and made theirs after it, their TLS
     * handshakes threw the workload's compiled socket and TLS code back to the interpreter, to be compiled again in
     * the measured minute.
     */
    PrimeOutcome run(Workload<Connection> workload, JdbcTarget target, List<? extends Probe> probes,
                     SqlConsumer restore, SqlConsumer settle, PrintStream out) {
        RunPlan.Builder b = plan.toBuilder().prime(Duration.ZERO).warmup(Duration.ZERO);
        PhasePlan phase = PhasePlan.measured(Phase.PRIME, limit);
        RunPlan priming = b.phase(plan.primeUntil() == null ? phase : phase.until(plan.primeUntil())).build();
        out.printf(Locale.ROOT, "Priming apart (not measured): %d clients %s...%n", plan.clients(),
                (plan.primeUntil() == null ? "for " : "") + span());
        RunRecord record;
        try {
            record = new Runner<>(priming, workload, target, RunListener.NONE, null, probes).leavingProbesOpen().run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailedException("interrupted while priming", e);
        }
        if (record.failed()) {
            throw new RunFailedException("the priming stopped on an error it cannot continue past: "
                    + record.fatalError());
        }
        long operations = record.operations().stream().mapToLong(o -> o.count()).sum();
        PrimeOutcome outcome = plan.primeUntil() == null ? null
                : new PrimeOutcome(plan.primeUntil(), limit, record.measuredSeconds());
        out.printf(Locale.ROOT, "Primed %s (%,d operations); the tables are restored for the run.%n",
                outcome == null ? "for " + DurationConverter.format(limit) : outcome.text(), operations);
        Connection c = null;
        boolean broken = false;
        try {
            c = target.open();
            restoreWaiting(c, restore);
        } catch (SQLException e) {
            broken = true;
            throw new RunFailedException("cannot restore the tables after the priming: " + SqlStates.message(e), e);
        } finally {
            if (c != null) {
                target.release(c, broken);
            }
        }
        for (Connection session : target.keptSessions()) {
            try {
                settle.accept(session);
            } catch (SQLException e) {
                throw new RunFailedException("cannot ready a session for the run after the priming: "
                        + SqlStates.message(e), e);
            }
        }
        return outcome;
    }
}
