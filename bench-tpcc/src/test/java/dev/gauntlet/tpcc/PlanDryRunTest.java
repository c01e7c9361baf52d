package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.sql.adversity.Toxiproxy;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --plan FILE --dry-run}: the schedule printed and the plan checked against the target, with no database
 * contacted (the URL's host does not exist) and nothing run (the commands would leave a file); a bad plan is one line
 * and exit 2.
 */
class PlanDryRunTest {

    private static final String NOWHERE = "jdbc:postgresql://db1.invalid:5433,db2.invalid/shop";

    /** The command's outcome, with what it printed on System.out (where a run's console goes) as its output. */
    static AdversityRunTest.Outcome tpcc(String... args) {
        java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
        java.io.PrintStream before = System.out;
        System.setOut(new java.io.PrintStream(console, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            AdversityRunTest.Outcome o = AdversityRunTest.tpcc(args);
            return new AdversityRunTest.Outcome(o.code(), o.out() + console.toString(
                    java.nio.charset.StandardCharsets.UTF_8), o.err());
        } finally {
            System.setOut(before);
        }
    }

    @Test
    void aDryRunPrintsTheScheduleAndItsCommandsAndRunsNothing(@TempDir Path tmp) throws Exception {
        Path file = AdversityRunTest.plan(tmp, """
                name: dry
                phases:
                  - {name: warmup, length: 10s, measured: false}
                  - {name: baseline, length: 1m}
                  - name: faults
                    length: 2m
                    disruptions:
                      - {kind: command, name: restart, at: 30s, timeout: 90s, start: touch started, undo: touch undone}
                      - {kind: command, name: cut, at: 1m, length: 20s, start: touch cut, stop: touch healed}
                      - {kind: vacuum-full, at: 1m30s, table: district}
                  - {name: recovery, length: 1m, until: recovered}
                """);
        AdversityRunTest.Outcome run = tpcc("run", "--plan", file.toString(), "--dry-run",
                "--url", NOWHERE, "--user", "nobody");
        assertEquals(0, run.code(), run.err() + run.out());
        String out = run.out();
        assertTrue(out.contains("Plan dry (" + file + "): 4 phases, 4m10s, 3 disruptions. Dry run"), out);
        assertTrue(out.contains("Target: db1.invalid:5433,db2.invalid:5432, database shop"), out);
        assertTrue(out.contains("1m10s    3m10s    faults"), out);
        assertTrue(out.contains("3m10s    4m10s    recovery (until recovered, at most 1m)"), out);
        assertTrue(out.contains("restart: command in phase faults, 1m40s (runs to completion)"), out);
        assertTrue(out.contains("start (within 1m30s, at 1m40s): touch started"), out);
        assertTrue(out.contains("undo  (within 1m30s, at the end of the run): touch undone"), out);
        assertTrue(out.contains("cut: command in phase faults, 2m10s to 2m30s"), out);
        assertTrue(out.contains("stop  (within 1m, at 2m30s): touch healed"), out);
        assertTrue(out.contains("in:   " + tmp.toAbsolutePath()), out);
        assertTrue(out.contains("GAUNTLET_DISRUPTION=cut GAUNTLET_STEP=start|stop|undo GAUNTLET_PHASE=faults "
                + "GAUNTLET_PLANNED_START=130 GAUNTLET_PLANNED_END=150 GAUNTLET_LENGTH=20 "
                + "GAUNTLET_HOSTS=db1.invalid:5433,db2.invalid:5432 GAUNTLET_HOST=db1.invalid GAUNTLET_PORT=5433 "
                + "GAUNTLET_DATABASE=shop"), out);
        assertTrue(out.contains("vacuum-full: vacuum-full in phase faults, 2m40s (runs to completion)"), out);
        assertFalse(Files.exists(tmp.resolve("started")) || Files.exists(tmp.resolve("undone")), "nothing ran");

        // Without --url: the embedded servers, whose ports are known only once started (and none is started).
        AdversityRunTest.Outcome embedded = tpcc("run", "--plan", file.toString(), "--dry-run");
        assertEquals(0, embedded.code(), embedded.err() + embedded.out());
        assertTrue(embedded.out().contains("Target: the embedded servers (no --url)"), embedded.out());
        assertTrue(embedded.out().contains("(target variables once the servers start)"), embedded.out());
    }

    @Test
    void aNetworkFaultSaysWhichServersItHitsAndAnUnknownOneIsRefused(@TempDir Path tmp) throws Exception {
        Path unknown = AdversityRunTest.plan(tmp,
                "phases: [{name: a, length: 1m, disruptions: [{kind: blackhole, length: 5s, hosts: [n3]}]}]");
        AdversityRunTest.Outcome refused = tpcc("run", "--plan", unknown.toString(), "--dry-run", "--url", NOWHERE);
        assertEquals(2, refused.code(), refused.err() + refused.out());
        assertEquals("run: " + unknown + ": phase a, disruption 1 (blackhole): hosts: 'n3' is no server of the target "
                + "(n1 = db1.invalid:5433, n2 = db2.invalid:5432)", refused.err().strip());
        AdversityRunTest.Outcome embedded = tpcc("run", "--plan", unknown.toString(), "--dry-run");
        assertEquals(2, embedded.code(), embedded.err() + embedded.out());
        assertTrue(embedded.err().contains("'n3' is no server of the embedded topology"), embedded.err());

        Assumptions.assumeTrue(Toxiproxy.find().isPresent(), "Toxiproxy is not installed: " + Toxiproxy.INSTALL);
        Path file = AdversityRunTest.plan(tmp, """
                phases:
                  - name: faults
                    length: 1m
                    disruptions:
                      - {kind: latency, at: 5s, length: 5s, latency: 50ms, jitter: 10ms, share: 50%}
                      - {kind: blackhole, at: 20s, length: 5s, hosts: [n2]}
                      - {kind: reset, at: 40s, length: 5s, hosts: ['db1.invalid:5433']}
                """);
        AdversityRunTest.Outcome run = tpcc("run", "--plan", file.toString(), "--dry-run", "--url", NOWHERE);
        assertEquals(0, run.code(), run.err() + run.out());
        String out = run.out();
        assertTrue(out.contains("latency: latency in phase faults, 5s to 10s\n"
                + "    50ms (+/- 10ms) added each way between the workload and its servers for 50% of the connections\n"
                + "    on:   every server: n1 = db1.invalid:5433, n2 = db2.invalid:5432\n"), out);
        assertTrue(out.contains("blackhole: blackhole in phase faults, 20s to 25s\n"), out);
        assertTrue(out.contains("    on:   n2 = db2.invalid:5432\n"), out);
        assertTrue(out.contains("    on:   n1 = db1.invalid:5433\n"), out);
        Path standbyOnly = AdversityRunTest.plan(Files.createDirectory(tmp.resolve("embedded")),
                "phases: [{name: a, length: 1m, disruptions: [{kind: blackhole, length: 5s, hosts: [n2]}]}]");
        AdversityRunTest.Outcome standby = tpcc("run", "--plan", standbyOnly.toString(), "--dry-run", "--standby",
                "sync");
        assertEquals(0, standby.code(), standby.err() + standby.out());
        assertTrue(standby.out().contains("    on:   n2 (the standby at start)\n"), standby.out());
    }

    @Test
    void aBadPlanIsOneLineAndExit2(@TempDir Path tmp) throws Exception {
        Path stopWithoutLength = AdversityRunTest.plan(tmp,
                "phases: [{name: a, length: 1m, disruptions: [{kind: command, start: x, stop: y}]}]");
        AdversityRunTest.Outcome bad = tpcc("run", "--plan", stopWithoutLength.toString(),
                "--dry-run", "--url", NOWHERE);
        assertEquals(2, bad.code(), bad.err() + bad.out());
        assertEquals(1, bad.err().strip().lines().count(), bad.err());
        assertTrue(bad.err().contains("a stop command needs a length"), bad.err());

        Path processes = AdversityRunTest.plan(tmp,
                "phases: [{name: a, length: 1m, disruptions: [{kind: restart-fast}]}]");
        AdversityRunTest.Outcome refused = tpcc("run", "--plan", processes.toString(), "--dry-run",
                "--url", NOWHERE);
        assertEquals(2, refused.code());
        assertTrue(refused.err().contains("restart-fast cannot run against --url"), refused.err());

        AdversityRunTest.Outcome noPlan = tpcc("run", "--dry-run", "--url", NOWHERE);
        assertEquals(2, noPlan.code());
        assertTrue(noPlan.err().contains("--dry-run applies to runs with --plan"), noPlan.err());
    }

    /**
     * A plan split over driver processes: they must share the database (a --url), one start instant and, for random
     * times, one seed; network faults, made in front of one process's connections, cannot reach the others.
     */
    @Test
    void aSplitPlanThatCannotBeOneRunIsOneLine(@TempDir Path tmp) throws Exception {
        Path sql = AdversityRunTest.plan(tmp,
                "phases: [{name: a, length: 1m, disruptions: [{kind: checkpoint-storm, length: 10s}]}]");
        String at = "2026-11-25T15:00:00Z";
        java.util.Map<String, String[]> refusals = new java.util.LinkedHashMap<>();
        refusals.put("needs --url", new String[] {"run", "--plan", sql.toString(), "--dry-run", "--worker", "1/2",
                "--start-at", at, "--warehouses", "2"});
        refusals.put("needs --start-at", new String[] {"run", "--plan", sql.toString(), "--dry-run", "--worker", "1/2",
                "--url", NOWHERE, "--warehouses", "2"});
        Path network = Files.writeString(tmp.resolve("network.yaml"),
                "phases: [{name: a, length: 1m, disruptions: [{kind: latency, length: 10s}]}]");
        refusals.put("latency cannot run with --worker", new String[] {"run", "--plan", network.toString(), "--dry-run",
                "--worker", "0/2", "--start-at", at, "--url", NOWHERE, "--warehouses", "2"});
        Path random = Files.writeString(tmp.resolve("random.yaml"), "phases: [{name: a, length: 1m, disruptions: "
                + "[{kind: checkpoint-storm, length: 5s, repeat: 2, random: true}]}]");
        refusals.put("at random times need --seed", new String[] {"run", "--plan", random.toString(), "--dry-run",
                "--worker", "0/2", "--start-at", at, "--url", NOWHERE, "--warehouses", "2"});
        refusals.forEach((why, args) -> {
            AdversityRunTest.Outcome o = tpcc(args);
            assertEquals(2, o.code(), why + ": " + o.err() + o.out());
            assertEquals(1, o.err().strip().lines().count(), o.err());
            assertTrue(o.err().contains(why), o.err());
        });
        AdversityRunTest.Outcome split = tpcc("run", "--plan", sql.toString(), "--dry-run", "--worker", "1/2",
                "--start-at", at, "--url", NOWHERE, "--warehouses", "2");
        assertEquals(0, split.code(), split.err() + split.out());
        assertTrue(split.out().contains("Workers: this is worker 1/2; worker 0 injects the plan's disruptions, this one "
                + "records them as planned"), split.out());
    }
}
