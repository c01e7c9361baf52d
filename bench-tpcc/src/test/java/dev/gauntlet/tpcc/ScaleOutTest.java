package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.report.ResultMerge;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.ResultFormatException;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * One run split over two driver instances as the Kubernetes Indexed Job splits it ({@code --worker 0/2},
 * {@code --worker 1/2}, the same {@code --start-at}): worker 0 loads, worker 1 waits for its load, each drives its own
 * warehouse, and the merge of their results is exact: counts and tpmC add up, percentiles are those of the union of
 * samples.
 */
@ExtendWith(PostgresExtension.class)
class ScaleOutTest {

    /** Empty: worker 0 loads it. */
    static TestDatabase db;
    /** Loaded, for the refusals. */
    static TestDatabase loaded;

    @BeforeAll
    static void databases(TestDatabase server) {
        db = server.freshDatabase("tpcc_scale_out");
        loaded = server.freshDatabase("tpcc_scale_out_loaded");
        assertEquals(0, TpccCommandTest.tpcc(loaded, "init", "--warehouses", "2").code());
    }

    static TpccCommandTest.Outcome worker(int index, String startAt, Path out) {
        return TpccCommandTest.tpcc(db, "run", "--init", "--warehouses", "2", "--clients", "4", "--worker",
                index + "/2", "--start-at", startAt, "--duration", "4s", "--report-every", "1s", "--seed", "5",
                "--out", out.toString());
    }

    @Test
    void twoWorkersSplitTheWarehousesStartTogetherAndMergeExactly(@TempDir Path tmp) throws Exception {
        String startAt = Instant.now().plusSeconds(15).toString();
        CompletableFuture<TpccCommandTest.Outcome> second =
                CompletableFuture.supplyAsync(() -> worker(1, startAt, tmp.resolve("w1")));
        TpccCommandTest.Outcome first = worker(0, startAt, tmp.resolve("w0"));
        assertEquals(0, first.code(), first.err());
        assertEquals(0, second.get().code(), second.get().err());
        RunResult w0 = ResultFile.read(tmp.resolve("w0").resolve(ResultFile.NAME));
        RunResult w1 = ResultFile.read(tmp.resolve("w1").resolve(ResultFile.NAME));

        assertEquals("0/2", w0.parameters().get("worker"));
        assertEquals("1-1", w0.parameters().get("homeWarehouses"));
        assertEquals("2-2", w1.parameters().get("homeWarehouses"));
        assertEquals(2, w0.clients());
        assertEquals(2, w1.clients());
        assertEquals(5L, ((Number) w0.parameters().get("seed")).longValue());
        assertEquals(6L, ((Number) w1.parameters().get("seed")).longValue());
        assertEquals(w0.parameters().get("nuRandC"), w1.parameters().get("nuRandC"), "one run, one set of constants");
        Duration apart = Duration.between(Instant.parse(w0.startedAt()), Instant.parse(w1.startedAt())).abs();
        assertTrue(apart.toMillis() < 1500, "started " + apart.toMillis() + " ms apart");

        // Worker 0 checks the database; each checks that its own committed New-Orders are there.
        assertEquals(Check.Status.PASS, status(w0, "3.3.2.1 "));
        assertEquals(Check.Status.SKIP, status(w1, "3.3.2 consistency checks"));
        assertEquals(Check.Status.PASS, status(w0, "nothing lost"));
        assertEquals(Check.Status.PASS, status(w1, "nothing lost"));

        RunResult merged = ResultMerge.merge(List.of(w0, w1));
        assertEquals("0,1/2", merged.parameters().get("worker"));
        assertEquals(4, merged.clients());
        long count = w0.operation("newOrder").orElseThrow().count() + w1.operation("newOrder").orElseThrow().count();
        assertEquals(count, merged.operation("newOrder").orElseThrow().count());
        assertEquals(w0.metrics().get("tpmC") + w1.metrics().get("tpmC"), merged.metrics().get("tpmC"), 1e-6);
        // The server's own count of New-Orders is one server seen by both: their mean, not their sum.
        assertEquals((w0.metrics().get("serverTpmC") + w1.metrics().get("serverTpmC")) / 2,
                merged.metrics().get("serverTpmC"), 1e-6);
        // Driver CPU per transaction: both processes' CPU over both processes' transactions.
        long transactions = w0.totalCount() + w1.totalCount();
        assertEquals((w0.metrics().get("driverCpuPerTransactionMs") * w0.totalCount()
                        + w1.metrics().get("driverCpuPerTransactionMs") * w1.totalCount()) / transactions,
                merged.metrics().get("driverCpuPerTransactionMs"), 1e-9);
        Histogram union = HistogramCodec.decode(w0.operation("newOrder").orElseThrow().histogram());
        union.add(HistogramCodec.decode(w1.operation("newOrder").orElseThrow().histogram()));
        assertEquals(union.getValueAtPercentile(99) / 1e6, merged.operation("newOrder").orElseThrow().latencyMs().p99(),
                1e-9);
        assertEquals(union.getValueAtPercentile(50) / 1e6, merged.operation("newOrder").orElseThrow().latencyMs().p50(),
                1e-9);

        ResultFormatException missing = assertThrows(ResultFormatException.class, () -> ResultMerge.merge(List.of(w0)));
        assertTrue(missing.getMessage().contains("worker 1/2 is missing"), missing.getMessage());
    }

    private static Check.Status status(RunResult r, String prefix) {
        return r.checks().stream().filter(c -> c.name().startsWith(prefix)).findFirst().orElseThrow(
                () -> new AssertionError("no check " + prefix + " in " + r.checks())).status();
    }

    @Test
    void aSplitThatCannotBeMadeIsOneLine() {
        for (String[] bad : List.of(new String[] {"--worker", "2/2"}, new String[] {"--worker", "one/two"},
                new String[] {"--worker", "2/3", "--warehouses", "2", "--clients", "6"},
                new String[] {"--worker", "3/4", "--clients", "2"}, new String[] {"--start-at", "tomorrow"})) {
            List<String> args = new java.util.ArrayList<>(List.of(bad));
            args.addAll(List.of("--duration", "1s", "--no-check"));
            TpccCommandTest.Outcome o = TpccCommandTest.tpcc(loaded, "run", args.toArray(String[]::new));
            assertEquals(2, o.code(), String.join(" ", bad) + ": " + o.err());
            assertEquals(1, o.err().strip().lines().count(), o.err());
        }
    }
}
