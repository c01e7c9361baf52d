package dev.gauntlet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.history.ResultStore;
import dev.gauntlet.core.history.ResultStoreException;
import dev.gauntlet.core.history.SeriesKey;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Redaction;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Tool;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL result store on a real server ({@link SqlTestServer}), each test on a fresh database, reached as a
 * user would reach it: {@link ResultStore#open} with a URL carrying the user (and password).
 */
class PostgresResultStoreTest {

    private SqlTestServer db;
    private String url;

    @BeforeEach
    void database() {
        db = SqlTestServer.shared().freshDatabase("result_store");
        url = withCredentials(db.url(), db.user(), db.password());
    }

    /** {@code url} with the user and password as parameters, as {@code --store} takes them. */
    private static String withCredentials(String url, String user, String password) {
        StringBuilder s = new StringBuilder(url).append(url.contains("?") ? '&' : '?')
                .append("user=").append(URLEncoder.encode(user, StandardCharsets.UTF_8));
        if (password != null) {
            s.append("&password=").append(URLEncoder.encode(password, StandardCharsets.UTF_8));
        }
        return s.toString();
    }

    /** A small run as the runner would write it: one operation from a histogram, two declared metrics. */
    private static RunResult run(String runId, String startedAt, double tpmC) {
        Histogram h = new Histogram(TimeUnit.HOURS.toNanos(1), 3);
        for (int ms = 1; ms <= 20; ms++) {
            h.recordValue(TimeUnit.MILLISECONDS.toNanos(ms));
        }
        OperationResult newOrder = OperationResult.of("newOrder", h.getTotalCount(), 1, 2, h.getTotalCount() / 60.0,
                LatencySummary.of(h), HistogramCodec.encode(h), null, null, Map.of("rolledBack", 1L));
        return RunResult.builder()
                .runId(runId)
                .tool(new Tool("gauntlet", "0.1.0-test", "abc123"))
                .workload("tpcc")
                .variant("baseline")
                .command("bench-tpcc run --warehouses 4")
                .labels(Map.of("release", "25.2"))
                .startedAt(startedAt)
                .measuredSeconds(60)
                .clients(8)
                .parameters(Map.of("warehouses", 4, "pool", "direct", "seed", 42))
                .operations(List.of(newOrder))
                .metrics(new Metrics().add("tpmC", tpmC, MetricInfo.higher())
                        .add("efficiency", 0.97, MetricInfo.higher()))
                .build();
    }

    private boolean hasTable() throws Exception {
        try (Connection c = db.connect()) {
            return Catalog.hasTable(c, PostgresResultStore.TABLE);
        }
    }

    @Test
    void openFindsThePostgresStoreAndMakesItsTable() throws Exception {
        assertFalse(hasTable());
        try (ResultStore store = ResultStore.open(url)) {
            assertInstanceOf(PostgresResultStore.class, store);
            assertEquals(Redaction.url(url), store.describe());
            assertTrue(store.runs().isEmpty());
        }
        assertTrue(hasTable());
        assertEquals("gauntlet_results_workload_started", db.scalar(
                "select indexname from pg_indexes where indexdef like '%(workload, started_at)'"));
    }

    @Test
    void processesOpeningAtOnceAndAgainAllGetTheStore() throws Exception {
        int openers = 4;
        CyclicBarrier together = new CyclicBarrier(openers);
        ExecutorService pool = Executors.newFixedThreadPool(openers);
        List<ResultStore> stores = new ArrayList<>();
        try {
            List<Future<ResultStore>> opened = new ArrayList<>();
            for (int i = 0; i < openers; i++) {
                opened.add(pool.submit(() -> {
                    together.await(10, TimeUnit.SECONDS);
                    return ResultStore.open(url);
                }));
            }
            for (Future<ResultStore> f : opened) {
                stores.add(f.get(30, TimeUnit.SECONDS));
            }
            stores.add(ResultStore.open(url));
            stores.get(0).save(run(RunResult.newRunId(), "2026-01-05T10:00:00Z", 100));
            for (ResultStore store : stores) {
                assertEquals(1, store.runs().size(), store.describe());
            }
        } finally {
            stores.forEach(ResultStore::close);
            pool.shutdownNow();
        }
    }

    @Test
    void savedRunsComeBackOldestFirstAsTheyWere() throws Exception {
        RunResult older = run("0b-older", "2026-01-05T10:00:00Z", 1000);
        RunResult newer = run("0a-newer", "2026-02-05T10:00:00Z", 1100);
        try (ResultStore store = ResultStore.open(url)) {
            store.save(newer);
            store.save(older);
            List<RunResult> runs = store.runs();
            assertEquals(List.of("0b-older", "0a-newer"), runs.stream().map(RunResult::runId).toList());
            for (int i = 0; i < 2; i++) {
                RunResult saved = List.of(older, newer).get(i);
                RunResult read = runs.get(i);
                assertEquals(saved.labels(), read.labels());
                assertEquals(saved.metrics(), read.metrics());
                assertEquals(saved.metricInfo(), read.metricInfo());
                assertEquals(saved.operations(), read.operations());
                assertEquals(saved, read);
            }
        }
        assertEquals(SeriesKey.of(older, Set.of()).describe(),
                db.scalar("select series from gauntlet_results where run_id = '0b-older'"));
        assertEquals("tpcc [baseline] clients=8 pool=direct warehouses=4",
                db.scalar("select series from gauntlet_results where run_id = '0b-older'"));
        assertEquals("25.2", db.scalar("select labels ->> 'release' from gauntlet_results where run_id = '0b-older'"));
        assertEquals("0.1.0-test", db.scalar("select tool_version from gauntlet_results where run_id = '0b-older'"));
        assertEquals("1", db.scalar("select count(*) from gauntlet_results where run_id = '0b-older' "
                + "and started_at = timestamptz '2026-01-05 10:00:00+00' and workload = 'tpcc' "
                + "and variant = 'baseline' and command like 'bench-tpcc run%' "
                + "and (result -> 'metrics' ->> 'tpmC')::float = 1000"));
    }

    @Test
    void theSameRunStoredAgainReplacesIt() throws Exception {
        RunResult first = run(RunResult.newRunId(), "2026-01-05T10:00:00Z", 1000);
        RunResult checked = first.toBuilder().labels(Map.of("release", "25.3")).metrics(Map.of("tpmC", 1234.5)).build();
        try (ResultStore store = ResultStore.open(url)) {
            store.save(first);
            store.save(checked);
            assertEquals(List.of(checked), store.runs());
        }
        assertEquals(1, db.scalarLong("select count(*) from gauntlet_results"));
        assertEquals("25.3", db.scalar("select labels ->> 'release' from gauntlet_results"));
    }

    @Test
    void aResultWithoutRunIdIsRefused() throws Exception {
        RunResult versionOne = run(null, "2026-01-05T10:00:00Z", 1000).toBuilder().schemaVersion(1).build();
        try (ResultStore store = ResultStore.open(url)) {
            ResultStoreException e = assertThrows(ResultStoreException.class, () -> store.save(versionOne));
            assertTrue(e.getMessage().contains("without a run id (schemaVersion 1)"), e.getMessage());
            assertTrue(store.runs().isEmpty());
        }
    }

    @Test
    void aStoredResultThisProgramCannotReadIsNamed() throws Exception {
        try (ResultStore store = ResultStore.open(url)) {
            db.execute("insert into gauntlet_results (run_id, workload, series, result) values "
                    + "('from-the-future', 'tpcc', 'tpcc', '{\"schemaVersion\": 99, \"operations\": []}')");
            ResultStoreException e = assertThrows(ResultStoreException.class, store::runs);
            assertEquals("cannot read results from " + store.describe() + ": gauntlet_results run from-the-future: "
                    + "result schemaVersion 99 is not supported by this Gauntlet (reads 1.." + RunResult.SCHEMA_VERSION
                    + ")", e.getMessage());
        }
    }

    @Test
    void aWrongPasswordNamesTheSqlStateButNotThePassword() throws Exception {
        db.passwordRole("gauntlet_store_pw", "right-password");
        String wrong = withCredentials(db.url(), "gauntlet_store_pw", "not-the-password");
        ResultStoreException e = assertThrows(ResultStoreException.class, () -> ResultStore.open(wrong));
        String message = e.getMessage();
        assertTrue(message.startsWith("cannot keep results in " + db.url()), message);
        assertTrue(message.contains("password=****"), message);
        assertTrue(message.contains(": " + SqlStates.INVALID_PASSWORD + " "), message);
        assertTrue(message.contains("gauntlet_store_pw"), message);
        assertFalse(message.contains("not-the-password"), message);
        assertFalse(message.contains("\n"), message);
    }

    @Test
    void aRefusedConnectionSaysSo() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String nobody = "jdbc:postgresql://127.0.0.1:" + port + "/bench?user=ci&password=s3cret";
        ResultStoreException e = assertThrows(ResultStoreException.class, () -> ResultStore.open(nobody));
        String message = e.getMessage();
        assertTrue(message.startsWith("cannot keep results in jdbc:postgresql://127.0.0.1:" + port
                + "/bench?user=ci&password=****: 08001 "), message);
        assertTrue(message.contains("refused"), message);
        assertFalse(message.contains("s3cret") || message.contains("\n"), message);
    }

    @Test
    void aUrlNoStoreTakesSaysWhichOnesItTakes() {
        ResultStoreException e = assertThrows(ResultStoreException.class,
                () -> ResultStore.open("mysql://x/y?password=hunter2"));
        assertEquals("--store mysql://x/y?password=****: this program cannot keep results there; it takes "
                + new PostgresResultStore.Provider().example(), e.getMessage());
    }
}
