package dev.gauntlet.sql.adversity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.core.run.Runner;
import dev.gauntlet.core.run.SyntheticTarget;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.sql.ConnectionSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kind: command} through the real runner and a shell: the variables each step sees, the time limit that kills
 * a command and what it started, exit status and the last lines of output in the record, a failure that fails the
 * disruption and not the run, undo at the end whatever happened. The target is a URL no one connects to (commands
 * need none) and the workload synthetic.
 */
class CommandDisruptionTest {

    @TempDir
    Path dir;

    private static final SystemUnderTest SYSTEM = new SystemUnderTest(
            new ConnectionSettings("jdbc:postgresql://db1:5433,db2/shop?sslmode=require", "bench", null), "shop",
            null, null);

    /** Runs a plan's phases and disruptions (commands in {@link #dir}) over a synthetic workload. */
    private Map<String, DisruptionRecord> run(String planText) throws Exception {
        AdversityPlan plan = PlanFile.parse("t.yaml", planText);
        RunPlan.Builder b = RunPlan.builder().clients(1, 0).reportEvery(Duration.ofMillis(500)).seed(1);
        plan.phasePlans().forEach(b::phase);
        Disruptions.plans(plan.schedule(1), SYSTEM, dir).forEach(d -> b.disruption(d.disruption(), d.at(), d.length()));
        Workload<Integer> w = Workload.repeating(Operation.of("op", s -> Thread.sleep(2)));
        RunRecord r = new Runner<>(b.build(), w, SyntheticTarget.direct(), RunListener.NONE, null).run();
        assertNull(r.fatalError(), "a failing command does not end the run");
        return r.disruptions().stream().collect(Collectors.toMap(DisruptionRecord::name, Function.identity()));
    }

    private Map<String, String> env(Path file) throws Exception {
        return Files.readAllLines(file).stream().filter(l -> l.startsWith("GAUNTLET_"))
                .collect(Collectors.toMap(l -> l.substring(0, l.indexOf('=')), l -> l.substring(l.indexOf('=') + 1)));
    }

    @Test
    void eachStepSeesTheDisruptionItsPlannedTimesAndTheTargetsHostsAndRunsInThePlansDirectory() throws Exception {
        Map<String, DisruptionRecord> records = run("""
                phases:
                  - {name: baseline, length: 1s}
                  - name: faults
                    length: 2s
                    disruptions:
                      - kind: command
                        name: partition
                        at: 500ms
                        length: 1s
                        start: env > start.env
                        stop: env > stop.env
                        undo: env > undo.env; echo undone
                """);
        DisruptionRecord d = records.get("partition");
        assertEquals(DisruptionRecord.DONE, d.outcome(), d.toString());
        Map<String, String> start = env(dir.resolve("start.env"));
        assertEquals("partition", start.get("GAUNTLET_DISRUPTION"));
        assertEquals("start", start.get("GAUNTLET_STEP"));
        assertEquals("faults", start.get("GAUNTLET_PHASE"));
        assertEquals("1.5", start.get("GAUNTLET_PLANNED_START"));
        assertEquals("2.5", start.get("GAUNTLET_PLANNED_END"));
        assertEquals("1", start.get("GAUNTLET_LENGTH"));
        assertEquals("db1:5433,db2:5432", start.get("GAUNTLET_HOSTS"));
        assertEquals("db1", start.get("GAUNTLET_HOST"));
        assertEquals("5433", start.get("GAUNTLET_PORT"));
        assertEquals("shop", start.get("GAUNTLET_DATABASE"));
        assertEquals("stop", env(dir.resolve("stop.env")).get("GAUNTLET_STEP"));
        assertEquals("undo", env(dir.resolve("undo.env")).get("GAUNTLET_STEP"));
        assertTrue(d.notes().stream().anyMatch(n -> n.startsWith("start: exit 0 in ")), d.notes().toString());
        assertTrue(d.notes().stream().anyMatch(n -> n.startsWith("stop: exit 0 in ")), d.notes().toString());
        assertTrue(d.notes().contains("undo| undone"), d.notes().toString());
        assertEquals(2.5, d.endSeconds(), 0.5, "stopped after its length");
    }

    @Test
    void exitStatusAndTheLastLinesOfOutputAreRecordedAndAFailureFailsTheDisruptionNotTheRun() throws Exception {
        Map<String, DisruptionRecord> records = run("""
                phases:
                  - name: faults
                    length: 2s
                    disruptions:
                      - kind: command
                        name: broken
                        at: 100ms
                        length: 200ms
                        start: "for i in $(seq 1 30); do echo line $i; done; echo oops >&2; exit 3"
                        undo: touch undone
                      - {kind: command, name: after, at: 1s, start: echo fine}
                """);
        DisruptionRecord broken = records.get("broken");
        assertEquals(DisruptionRecord.FAILED, broken.outcome(), broken.toString());
        assertTrue(broken.notes().stream().anyMatch(n -> n.startsWith("start: exit 3 in ")), broken.notes().toString());
        List<String> tail = broken.notes().stream().filter(n -> n.startsWith("start| ")).toList();
        assertEquals(CommandDisruption.TAIL, tail.size(), tail.toString());
        assertEquals("start| line 12", tail.get(0));
        assertEquals("start| oops", tail.get(tail.size() - 1), "stderr with stdout");
        assertTrue(broken.notes().contains("broken failed: start exit 3"), broken.notes().toString());
        assertTrue(Files.exists(dir.resolve("undone")), "undo ran at the end after the failure");
        assertEquals(DisruptionRecord.DONE, records.get("after").outcome(), "the run went on");
    }

    @Test
    void aCommandPastItsTimeLimitIsKilledWithWhatItStartedAndFailsTheDisruption() throws Exception {
        long t0 = System.nanoTime();
        Map<String, DisruptionRecord> records = run("""
                phases:
                  - name: faults
                    length: 3s
                    disruptions:
                      - kind: command
                        name: hangs
                        start: "sleep 60 & echo $! > child.pid; wait"
                        timeout: 1s
                """);
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(20).toNanos(), "not held up by the sleep");
        DisruptionRecord d = records.get("hangs");
        assertEquals(DisruptionRecord.FAILED, d.outcome(), d.toString());
        assertTrue(d.notes().stream().anyMatch(n -> n.startsWith("start: did not finish within 1s, killed")),
                d.notes().toString());
        long child = Long.parseLong(Files.readString(dir.resolve("child.pid")).strip());
        assertFalse(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false), "the shell's sleep was killed");
    }

    @Test
    void aCommandStillRunningWhenTheRunEndsIsKilledAndUndone() throws Exception {
        Map<String, DisruptionRecord> records = run("""
                phases:
                  - name: faults
                    length: 1s
                    disruptions:
                      - {kind: command, name: long, at: 200ms, start: sleep 30, timeout: 2m, undo: touch undone}
                """);
        DisruptionRecord d = records.get("long");
        assertTrue(d.notes().stream().anyMatch(n -> n.startsWith("start: killed, the run ended")), d.notes().toString());
        assertTrue(Files.exists(dir.resolve("undone")));
    }

    @Test
    void planSyntaxIsChecked() {
        String phase = "phases: [{name: a, length: 1m, disruptions: [%s]}]";
        assertThrows(PlanFile.PlanException.class, () -> PlanFile.parse("t.yaml",
                phase.formatted("{kind: command, stop: x, length: 5s}")), "start is required");
        PlanFile.PlanException stopWithoutLength = assertThrows(PlanFile.PlanException.class, () ->
                PlanFile.parse("t.yaml", phase.formatted("{kind: command, start: x, stop: y}")));
        assertTrue(stopWithoutLength.getMessage().contains("a stop command needs a length"),
                stopWithoutLength.getMessage());
        PlanFile.PlanException timeout = assertThrows(PlanFile.PlanException.class, () ->
                PlanFile.parse("t.yaml", phase.formatted("{kind: command, start: x, timeout: soon}")));
        assertTrue(timeout.getMessage().contains("timeout"), timeout.getMessage());
        assertThrows(PlanFile.PlanException.class, () -> PlanFile.parse("t.yaml",
                phase.formatted("{kind: command, start: x, restart: y}")), "unknown option");
        assertThrows(PlanFile.PlanException.class, () -> PlanFile.parse("t.yaml",
                phase.formatted("{kind: command, start: '  '}")), "empty start");
        // A length without a stop: the fault ends by itself (a Chaos Mesh experiment's duration), recovery after it.
        ScheduledDisruption s = PlanFile.parse("t.yaml", phase.formatted("{kind: command, start: x, length: 10s}"))
                .schedule(1).get(0);
        assertEquals(Duration.ofSeconds(10), s.length());
        // Two command faults that overlap are refused like any two faults; an event keeps 15 s to itself.
        IllegalArgumentException overlap = assertThrows(IllegalArgumentException.class, () -> PlanFile.parse("t.yaml",
                phase.formatted("{kind: command, start: x}, {kind: command, name: y, at: 5s, start: y}")).schedule(1));
        assertTrue(overlap.getMessage().contains("overlap"), overlap.getMessage());
    }
}
