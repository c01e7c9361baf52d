package dev.gauntlet.core.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shell's commands killed with it at the time limit; the end of the output as lines; the environment a program gets
 * is Gauntlet's choice, not the caller's (the test JVM's own variables stand in for a user's shell).
 */
class HostCommandTest {

    @Test
    void aShellPastItsLimitIsKilledWithTheCommandsItStarted(@TempDir Path dir) throws Exception {
        Path pid = dir.resolve("child.pid");
        long t0 = System.nanoTime();
        HostCommand.Outcome o = HostCommand.of("sh", "-c", "sleep 60 & echo $! > " + pid + "; wait")
                .within(Duration.ofMillis(500)).killingItsChildren().run();
        assertTrue(o.timedOut());
        assertFalse(o.succeeded());
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(20).toNanos());
        long child = Long.parseLong(Files.readString(pid).strip());
        for (int i = 0; i < 50 && ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false); i++) {
            Thread.sleep(100);
        }
        assertFalse(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false), "the shell's sleep was killed");
    }

    @Test
    void theLastLinesOfTheOutput() throws Exception {
        HostCommand.Outcome o = HostCommand.of("sh", "-c", "for i in 1 2 3 4 5; do echo line $i; done; echo; exit 3")
                .run();
        assertEquals(3, o.exitCode());
        assertEquals(List.of("line 4", "line 5"), o.lastLines(2));
        assertEquals(5, o.lastLines(20).size());
        assertEquals(List.of(), HostCommand.of("true").run().lastLines(20));
    }

    @Test
    void aProgramGetsOnlyTheVariablesGauntletChoseUnlessTheUserWroteIt() throws Exception {
        java.util.Set<String> callers = System.getenv().keySet();
        java.util.Set<String> foreign = new java.util.TreeSet<>(callers);
        foreign.removeAll(HostCommand.KEPT);
        org.junit.jupiter.api.Assumptions.assumeFalse(foreign.isEmpty(), "the test JVM has only kept variables");
        List<String> got = names(HostCommand.of("env").env("LC_ALL", "C").run().output());
        java.util.Set<String> allowed = new java.util.HashSet<>(HostCommand.KEPT);
        allowed.add("LC_ALL");
        assertTrue(allowed.containsAll(got), "only kept and set variables: " + got);
        assertTrue(got.contains("PATH") && got.contains("LC_ALL"), got.toString());
        assertTrue(names(HostCommand.of("env").withCallersEnvironment().run().output()).containsAll(foreign),
                "a user's own command keeps their variables");
    }

    private static List<String> names(String env) {
        return env.lines().filter(l -> l.contains("=")).map(l -> l.substring(0, l.indexOf('='))).toList();
    }
}
