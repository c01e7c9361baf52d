package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.tpcc.checks.NothingLost;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end against a server Gauntlet does not run: a plan whose {@code kind: command} disruption restarts it with
 * the user's own command (the Debian cluster: {@code pg_ctlcluster --skip-systemctl-redirect 15 main restart}), with
 * TPC-C running through it: the restart recorded (exit 0), recovery measured, failures by class in the intervals,
 * nothing lost, every check PASS. It restarts a real server, so it runs only when asked:
 *
 * <pre>
 * GAUNTLET_PG_URL=jdbc:postgresql://localhost:5432/gauntlet_restart GAUNTLET_PG_USER=bench GAUNTLET_PG_PASSWORD=bench \
 * GAUNTLET_PG_RESTART_COMMAND='pg_ctlcluster --skip-systemctl-redirect 15 main restart' \
 *   mvn -o -pl bench-tpcc -am test -Dtest=CommandRestartTest -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@Tag("long")
class CommandRestartTest {

    @Test
    void aRestartByTheUsersOwnCommandIsRecoveredFromAndLosesNothing(@TempDir Path tmp) throws Exception {
        String url = System.getenv("GAUNTLET_PG_URL");
        String restart = System.getenv("GAUNTLET_PG_RESTART_COMMAND");
        Assumptions.assumeTrue(url != null && restart != null, "restarts a real server: set GAUNTLET_PG_URL (a "
                + "database of its own) and GAUNTLET_PG_RESTART_COMMAND (e.g. 'pg_ctlcluster "
                + "--skip-systemctl-redirect 15 main restart'), with GAUNTLET_PG_USER and GAUNTLET_PG_PASSWORD");
        // Warm-up 20 s (plan runs are not primed; the compilers are busy for the first half-minute on a 2-core box),
        // open loop at a rate the box keeps with room to spare, and a phase after the restart that lasts until the
        // workload is back (at most 60 s). With a 5 s warm-up, closed loop and 32 s left in the phase after the
        // restart, CI saw "not recovered" once (2026-11-28) where every run on this machine had recovered.
        Path file = AdversityRunTest.plan(tmp, """
                name: command-restart
                recovery: {operation: newOrder, hold: 5s}
                phases:
                  - {name: warmup, length: 20s, measured: false}
                  - {name: baseline, length: 20s}
                  - name: restart
                    length: 20s
                    disruptions:
                      - kind: command
                        name: restart
                        at: 5s
                        timeout: 2m
                        start: $GAUNTLET_PG_RESTART_COMMAND
                        undo: echo "restarted $GAUNTLET_HOSTS in phase $GAUNTLET_PHASE"
                  - {name: after-restart, length: 60s, until: recovered}
                """);
        Path out = tmp.resolve("run");
        AdversityRunTest.Outcome run = PlanDryRunTest.tpcc("run", "--plan", file.toString(), "--url", url,
                "--user", System.getenv().getOrDefault("GAUNTLET_PG_USER", "bench"),
                "--password", System.getenv().getOrDefault("GAUNTLET_PG_PASSWORD", "bench"),
                "--init", "--warehouses", "1", "--clients", "4", "--rate", "300", "--seed", "3", "--out", out.toString());
        assertEquals(0, run.code(), run.err() + run.out());
        RunResult r = ResultFile.read(out.resolve(ResultFile.NAME));
        DisruptionRecord d = r.disruptions().get(0);
        assertEquals(DisruptionRecord.DONE, d.outcome(), d.toString());
        assertTrue(d.notes().stream().anyMatch(n -> n.startsWith("start: exit 0 in ")), d.notes().toString());
        assertTrue(d.notes().stream().anyMatch(n -> n.startsWith("undo| restarted ") && n.endsWith("in phase restart")),
                d.notes().toString());
        List<Interval> intervals = RecoveryStory.intervals(out, r);
        System.out.printf("%s after %s s%n%s", d.recovery(), d.recoverySeconds(), RecoveryStory.of(r, intervals, d));
        assertEquals(DisruptionRecord.RECOVERED, d.recovery(), () -> d + "\n" + RecoveryStory.of(r, intervals, d));
        assertNotNull(d.recoverySeconds());
        assertTrue(r.intervals().stream().anyMatch(i -> i.failures().containsKey("connection")
                || i.failures().containsKey("reconnect")), "failures by class per interval");
        Check lost = r.checks().stream().filter(c -> c.name().equals(NothingLost.NAME)).findFirst().orElseThrow();
        assertEquals(Check.Status.PASS, lost.status(), lost.detail());
        List<Check> failed = r.checks().stream().filter(c -> c.status() == Check.Status.FAIL).toList();
        assertTrue(failed.isEmpty(), failed.toString());
    }
}
