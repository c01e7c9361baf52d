package dev.gauntlet.script.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.run.Failure;
import dev.gauntlet.script.lang.BuiltinScripts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pgbench 15's -l files and lines, from the times the runner tells (pgbench's doLog, line for line). */
class PgbenchTransactionLogTest {

    private static final long MS = 1_000_000L;

    private static List<CompiledScript> scripts() {
        return List.of(ScriptCompiler.compile(0, BuiltinScripts.find("select-only").parse(1), "select-only", false),
                ScriptCompiler.compile(1, BuiltinScripts.find("tpcb-like").parse(1), "tpcb-like", true));
    }

    private static List<Path> files(Path dir, String prefix) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix + ".")).sorted().toList();
        }
    }

    @Test
    void aLineATransactionInItsThreadsFileWithLagAndRetriesWhenTheyApply(@TempDir Path dir) throws Exception {
        String prefix = dir.resolve("log").toString();
        PgbenchTransactionLog log = new PgbenchTransactionLog(new PgbenchTransactionLog.Settings(prefix, 0, 0),
                scripts(), 3, 2, true, 3, false, 0);
        long t = System.nanoTime();
        log.ended(0, "tpcb-like", t, t + 2 * MS, t + 7 * MS, null, 2);
        log.ended(2, "select-only", t, t, t + MS, new Failure(Failure.Kind.RETRY, "40001", "x"), 3);
        log.ended(1, "select-only", t, t, t + MS, new Failure(Failure.Kind.FATAL, "42601", "x"), 1);
        log.close();
        long pid = ProcessHandle.current().pid();
        List<Path> files = files(dir, "log");
        // pgbench deals 3 clients to 2 threads as 2 and 1; the first thread's file has no thread number
        assertEquals(List.of(dir.resolve("log." + pid), dir.resolve("log." + pid + ".1")), files);
        String first = Files.readString(files.get(0));
        assertTrue(first.matches("0 1 7000 1 \\d+ \\d+ 2000 1\n"), first); // a client ending on an error logs nothing
        String second = Files.readString(files.get(1));
        assertTrue(second.matches("2 1 failed 0 \\d+ \\d+ 0 2\n"), second);
    }

    @Test
    void anAggregatedLineAnIntervalThatEndedTheLastOneLeftOut(@TempDir Path dir) throws Exception {
        String prefix = dir.resolve("agg").toString();
        while (System.currentTimeMillis() % 1000 > 900) {
            Thread.sleep(10); // the first two transactions fall in the log's first whole second
        }
        PgbenchTransactionLog log = new PgbenchTransactionLog(new PgbenchTransactionLog.Settings(prefix, 0, 1),
                scripts(), 1, 1, false, 1, true, 0);
        long t = System.nanoTime();
        log.ended(0, "select-only", t, t, t + 2 * MS, null, 1);
        log.ended(0, "select-only", t, t + 2 * MS, t + 6 * MS, null, 1);
        log.ended(0, "select-only", t, t, t + MS, new Failure(Failure.Kind.RETRY, "40P01", "x"), 1);
        log.ended(0, "select-only", t, t + 3000 * MS, t + 3001 * MS, null, 1); // two seconds later
        log.close();
        List<String> lines = Files.readAllLines(files(dir, "agg").get(0));
        // the first interval, the one with nothing in it, and not the one still open when the log closed
        assertTrue(lines.size() >= 2 && lines.size() <= 3, lines.toString());
        String[] f = lines.get(0).split(" ");
        assertEquals(15, f.length, lines.get(0));
        assertEquals(List.of("2", "6000", "20000000", "2000", "4000"), List.of(f).subList(1, 6));
        assertEquals("1", f[14], "the deadlock, counted with --failures-detailed");
        assertEquals(List.of("0", "0", "0", "0"), List.of(f).subList(6, 10), "no lag without -R");
        assertTrue(lines.get(1).matches("\\d+ 0 0 0 0 0 0 0 0 0 0 0 0 0 0"), lines.get(1));
    }
}
