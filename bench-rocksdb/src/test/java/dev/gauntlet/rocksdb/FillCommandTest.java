package dev.gauntlet.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.rocksdb.fill.FillWorkload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Small fills of every variant through the real command: results written, counts right, keys all there. */
class FillCommandTest {

    private static final long SEED = 7;

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} sync={1} manual_wal_flush={2} disableWAL={3}")
    @CsvSource({
            "fillseq, false, false, false, 3000",
            "fillseq, false, true, false, 3000",
            "fillseq, true, false, false, 300",
            "fillseq, true, true, false, 300",
            "fillseq, false, false, true, 3000",
            "fillrandom, false, false, false, 3000",
            "fillrandom, false, true, false, 3000",
            "fillrandom, true, false, false, 300",
            "fillrandom, true, true, false, 300",
            "fillrandom, false, false, true, 3000"})
    void everyVariantFillsAndKeepsItsKeys(String benchmark, boolean sync, boolean manual, boolean disableWal, long num)
            throws Exception {
        Path out = tmp.resolve("out");
        List<String> args = new ArrayList<>(List.of("fill", "--benchmarks", benchmark, "--num", String.valueOf(num),
                "--repeat", "1", "--seed", String.valueOf(SEED), "--db", tmp.resolve("db").toString(),
                "--out", out.toString()));
        if (sync) {
            args.add("--sync");
        }
        if (manual) {
            args.add("--manual-wal-flush");
        }
        if (disableWal) {
            args.add("--disable-wal");
        }
        Cli cli = Cli.run(args.toArray(String[]::new));
        assertEquals(0, cli.exitCode, cli.err);

        RunResult run = ResultFile.read(out.resolve(benchmark).resolve("run-1"));
        assertEquals(num, run.operation(FillWorkload.PUT).orElseThrow().count());
        assertEquals(Check.Status.PASS, run.checkStatus(), run.checks().toString());
        long expectedKeys = benchmark.equals("fillseq") ? num : distinctRandomKeys(num);
        assertEquals(expectedKeys, run.metrics().get("keysAfterReopen").longValue());
        assertTrue(Files.isRegularFile(out.resolve(benchmark).resolve("run-1").resolve("report.md")));
        assertTrue(Files.isRegularFile(out.resolve(benchmark).resolve("run-1").resolve("intervals.hlog")));

        // RocksDB's statistics: WAL bytes with a WAL and none without, a sync per synced write.
        double walBytes = run.metrics().get("walBytes");
        if (disableWal) {
            assertEquals(0.0, walBytes);
        } else {
            assertTrue(walBytes >= num * 116.0, "WAL bytes " + walBytes);
        }
        if (sync) {
            assertTrue(run.metrics().get("walSyncs") >= num, "WAL syncs " + run.metrics().get("walSyncs"));
        }
        assertTrue(run.metrics().containsKey("writeStalls"));

        RunResult series = ResultFile.read(out.resolve(benchmark));
        assertEquals(num, series.operation(FillWorkload.PUT).orElseThrow().count());
        assertTrue(Files.readString(out.resolve(benchmark).resolve("db_bench.md")).contains(String.format("%-12s :", benchmark)));
        assertTrue(Files.notExists(tmp.resolve("db").resolve(benchmark).resolve("run-1")), "database deleted after the run");
    }

    /** The keys fillrandom draws, from the runner's seed for client 0 (RunPlan seed x 1,000,003 + index). */
    private static long distinctRandomKeys(long num) {
        SplittableRandom random = new SplittableRandom(SEED * 1_000_003L);
        Set<Long> keys = new HashSet<>();
        for (long i = 0; i < num; i++) {
            keys.add(random.nextLong(num));
        }
        return keys.size();
    }

    @Test
    void repeatsThreadsAndFlushWalEveryN() throws Exception {
        Path out = tmp.resolve("out");
        Cli cli = Cli.run("fill", "--benchmarks", "fillseq,fillrandom", "--num", "4001", "--threads", "2",
                "--manual-wal-flush", "--flush-wal", "every:500", "--repeat", "2", "--seed", "3",
                "--db", tmp.resolve("db").toString(), "--out", out.toString());
        assertEquals(0, cli.exitCode, cli.err);
        for (String b : List.of("fillseq", "fillrandom")) {
            RunResult series = ResultFile.read(out.resolve(b));
            assertEquals(2 * 4001, series.operation(FillWorkload.PUT).orElseThrow().count());
            // 2000 and 2001 puts per thread: 4 + 4 flushes per run.
            assertEquals(2 * 8, series.operation(FillWorkload.FLUSH_WAL).orElseThrow().count());
            assertTrue(series.metrics().containsKey("gauntletMedianOpsPerSecond"));
            String md = Files.readString(out.resolve(b).resolve("db_bench.md"));
            assertTrue(md.contains("[AVG    2 runs]") && md.contains("[MEDIAN 2 runs]"), md);
        }
        RunResult seq = ResultFile.read(out.resolve("fillseq").resolve("run-2"));
        assertEquals(4001.0, seq.metrics().get("keysAfterReopen"));
    }

    @Test
    void flushWalAtTheEndSyncsBeforeClosing() throws Exception {
        Path out = tmp.resolve("out");
        Cli cli = Cli.run("fill", "--num", "2000", "--manual-wal-flush", "--flush-wal", "end", "--repeat", "1",
                "--db", tmp.resolve("db").toString(), "--out", out.toString());
        assertEquals(0, cli.exitCode, cli.err);
        RunResult run = ResultFile.read(out.resolve("fillseq").resolve("run-1"));
        assertTrue(run.metrics().containsKey("endFlushWalMs"));
        assertTrue(run.metrics().get("walSyncs") >= 1, "FlushWAL(true) syncs the WAL");
        assertEquals(2000.0, run.metrics().get("keysAfterReopen"));
    }
}
