package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.tpcc.checks.NothingLost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many drivers, one run through faults: two driver instances ({@code --worker 0/2} and {@code 1/2}, one
 * {@code --start-at}, started as {@link ScaleOutTest} starts them) follow one plan whose {@code kind: command}
 * disruption restarts a server Gauntlet does not run (the Debian cluster). Worker 0 alone runs the command; worker 1
 * carries the planned schedule; a phase {@code until: recovered} keeps its planned length in both. {@code report
 * merge} then gives one run: the restart once, with worker 0's record, placed on the merged timeline and judged for
 * recovery there; each phase's figures those of both processes' intervals in it; every check PASS; and {@code report
 * dashboard} draws it. Its recovery rule is wide (half the baseline's throughput, four times its p95): the test is
 * about one verdict on the merged timeline, not this machine's pace after a restart (once on CI the merged run stayed
 * outside the default range, nine tenths of the baseline, for the 37 s left); that each worker came back is asserted
 * directly, from its own commits after the restart. It restarts a real server, so it runs only when asked (the
 * variables {@code .ci/run} exports
 * for {@link CommandRestartTest}):
 *
 * <pre>
 * GAUNTLET_PG_URL=jdbc:postgresql://localhost:5433/gauntlet_drivers GAUNTLET_PG_USER=bench GAUNTLET_PG_PASSWORD=bench \
 * GAUNTLET_PG_RESTART_COMMAND='pg_ctlcluster --skip-systemctl-redirect 15 drivers restart' \
 *   mvn -o -pl bench-tpcc -am verify -Dtest=ManyDriversRestartTest -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@Tag("long")
class ManyDriversRestartTest {

    private static final String PLAN = """
            name: drivers-restart
            recovery: {operation: newOrder, hold: 5s, tolerance: 50%, latency-factor: 4}
            phases:
              - {name: warmup, length: 5s, measured: false}
              - {name: baseline, length: 15s}
              - name: restart
                length: 30s
                disruptions:
                  - kind: command
                    name: restart
                    at: 5s
                    timeout: 2m
                    start: echo "$GAUNTLET_DISRUPTION" >> injected.txt && $GAUNTLET_PG_RESTART_COMMAND
                    undo: echo "restarted $GAUNTLET_HOSTS in phase $GAUNTLET_PHASE"
              - {name: recovery, length: 15s, until: recovered}
            """;

    @Test
    void twoDriversFollowOnePlanThroughARestartAndMergeIntoOneJudgedRun(@TempDir Path tmp) throws Exception {
        String url = System.getenv("GAUNTLET_PG_URL");
        String restart = System.getenv("GAUNTLET_PG_RESTART_COMMAND");
        Assumptions.assumeTrue(url != null && restart != null, "restarts a real server: set GAUNTLET_PG_URL (a "
                + "database of its own) and GAUNTLET_PG_RESTART_COMMAND (e.g. 'pg_ctlcluster "
                + "--skip-systemctl-redirect 15 main restart'), with GAUNTLET_PG_USER and GAUNTLET_PG_PASSWORD");
        String user = System.getenv().getOrDefault("GAUNTLET_PG_USER", "bench");
        String password = System.getenv().getOrDefault("GAUNTLET_PG_PASSWORD", "bench");
        Path file = AdversityRunTest.plan(tmp, PLAN);
        AdversityRunTest.Outcome init = AdversityRunTest.tpcc("init", "--url", url, "--user", user,
                "--password", password, "--warehouses", "2");
        assertEquals(0, init.code(), init.err() + init.out());

        String startAt = Instant.now().plusSeconds(10).toString();
        CompletableFuture<AdversityRunTest.Outcome> second = CompletableFuture.supplyAsync(
                () -> worker(1, startAt, file, url, user, password, tmp));
        AdversityRunTest.Outcome first = worker(0, startAt, file, url, user, password, tmp);
        assertEquals(0, first.code(), first.err() + first.out());
        assertEquals(0, second.get().code(), second.get().err() + second.get().out());
        RunResult w0 = ResultFile.read(tmp.resolve("w0").resolve(ResultFile.NAME));
        RunResult w1 = ResultFile.read(tmp.resolve("w1").resolve(ResultFile.NAME));

        // Worker 0 alone ran the command; worker 1 carries the schedule as planned.
        assertEquals(List.of("restart"), Files.readAllLines(tmp.resolve("injected.txt")), "the restart ran once");
        DisruptionRecord done = single(w0);
        assertEquals(DisruptionRecord.DONE, done.outcome(), done.toString());
        assertTrue(done.notes().stream().anyMatch(n -> n.startsWith("start: exit 0 in ")), done.notes().toString());
        DisruptionRecord planned = single(w1);
        assertEquals(DisruptionRecord.PLANNED, planned.outcome(), planned.toString());
        assertNull(planned.startSeconds(), planned.toString());
        assertEquals(done.plannedStartSeconds(), planned.plannedStartSeconds(), 1e-9);
        // Both followed one timeline: the phase until: recovered kept its planned 15 s in each.
        for (RunResult w : List.of(w0, w1)) {
            Phase recovery = phase(w, "recovery");
            assertEquals(15.0, recovery.endSeconds() - recovery.startSeconds(), 0.5, w.phases().toString());
            assertEquals(65.0, recovery.endSeconds(), 0.5, w.phases().toString());
        }

        Path merged = tmp.resolve("merged");
        AdversityRunTest.Outcome merge = AdversityRunTest.tpcc("report", "merge", tmp.resolve("w0").toString(),
                tmp.resolve("w1").toString(), "--out", merged.toString());
        assertEquals(0, merge.code(), merge.err() + merge.out());
        RunResult m = ResultFile.read(merged.resolve(ResultFile.NAME));
        assertEquals("0,1/2", m.parameters().get("worker"));
        // Every interval of both, merged into the merged run's own timeline file, beside its result (which keeps them
        // in one-second buckets: two short intervals of a second, one closed late, share one).
        assertTrue(m.fullTimeline().intervals() >= m.intervals().size(), m.fullTimeline() + " " + m.intervals().size());
        long[] inFile = new long[1];
        dev.gauntlet.core.result.TimelineFile.read(merged.resolve(m.fullTimeline().file()), i -> inFile[0]++);
        assertEquals(m.fullTimeline().intervals(), inFile[0]);

        // The restart once, as worker 0 recorded it, moved onto the merged timeline, and judged there.
        DisruptionRecord d = single(m);
        double shift = seconds(w0.startedAt()) - seconds(m.startedAt());
        assertEquals(done.outcome(), d.outcome());
        assertEquals(done.notes(), d.notes());
        assertEquals(done.startSeconds() + shift, d.startSeconds(), 1e-3);
        assertEquals(done.endSeconds() + shift, d.endSeconds(), 1e-3);
        assertEquals(DisruptionRecord.RECOVERED, d.recovery(), d + "\n" + afterRestart(m, d));
        assertNotNull(d.recoverySeconds());

        // Each worker came back: its own connections committed after the restart, in the phase that awaits recovery.
        for (RunResult w : List.of(w0, w1)) {
            IntervalOperation after = phase(w, "recovery").operations().get("newOrder");
            assertTrue(after != null && after.count() > 0, w.parameters().get("worker") + ": " + w.phases());
        }

        // Each phase's figures: those of both processes' intervals in it, histograms summed.
        assertEquals(List.of("warmup", "baseline", "restart", "recovery"),
                m.phases().stream().map(Phase::name).toList());
        for (Phase p : m.phases()) {
            Map<String, Histogram> expected = new TreeMap<>();
            double rate = 0;
            for (RunResult w : List.of(w0, w1)) {
                Map<String, Long> counts = new TreeMap<>();
                double seconds = 0;
                for (Interval i : w.intervals()) {
                    if (!p.name().equals(i.phase())) {
                        continue;
                    }
                    seconds += i.seconds();
                    i.operations().forEach((name, op) -> {
                        Histogram h = expected.computeIfAbsent(name, n -> new Histogram(3));
                        if (op.histogram() != null) {
                            h.add(HistogramCodec.decode(op.histogram()));
                        }
                        counts.merge(name, op.count(), Long::sum);
                    });
                }
                rate += counts.getOrDefault("newOrder", 0L) / seconds;
            }
            assertEquals(expected.keySet(), p.operations().keySet(), p.name());
            expected.forEach((name, h) -> {
                IntervalOperation op = p.operations().get(name);
                assertEquals(h.getTotalCount(), op.count(), p.name() + " " + name);
                assertEquals(h.getValueAtPercentile(50) / 1e6, op.p50(), 1e-9, p.name() + " " + name);
                assertEquals(h.getValueAtPercentile(95) / 1e6, op.p95(), 1e-9, p.name() + " " + name);
                assertEquals(h.getValueAtPercentile(99) / 1e6, op.p99(), 1e-9, p.name() + " " + name);
                assertEquals(h.getMaxValue() / 1e6, op.max(), 1e-9, p.name() + " " + name);
            });
            assertEquals(rate, p.operations().get("newOrder").opsPerSecond(), 1e-6, p.name());
        }

        // Unavailability on the merged timeline: the seconds in which neither process committed anything.
        Map<String, Double> unavailable = new TreeMap<>();
        for (Interval i : m.intervals()) {
            unavailable.merge(i.phase(), i.unavailableSeconds(), Double::sum);
        }
        for (Phase p : m.phases()) {
            assertEquals(unavailable.getOrDefault(p.name(), 0.0), m.metrics().get("unavailableSeconds." + p.name()),
                    1e-9, p.name());
        }
        assertNotNull(m.metrics().get("tpmC.baseline"), m.metrics().keySet().toString());

        Check lost = m.checks().stream().filter(c -> c.name().equals(NothingLost.NAME)).findFirst().orElseThrow();
        assertEquals(Check.Status.PASS, lost.status(), lost.detail());
        List<Check> failed = m.checks().stream().filter(c -> c.status() == Check.Status.FAIL).toList();
        assertTrue(failed.isEmpty(), failed.toString());

        // What the run gave, for the report of it (surefire keeps the test's output).
        System.out.printf(java.util.Locale.ROOT, "merged: restart %.2f-%.2f s, %s after %.2f s; started %s and %s%n",
                d.startSeconds(), d.endSeconds(), d.recovery(), d.recoverySeconds(), w0.startedAt(), w1.startedAt());
        for (Phase p : m.phases()) {
            IntervalOperation no = p.operations().get("newOrder");
            System.out.printf(java.util.Locale.ROOT, "merged phase %-9s %6.2f-%6.2f s: newOrder %d (w0 %d + w1 %d), "
                    + "%.1f/s, p95 %.2f ms, p99 %.2f ms; unavailable %.1f s%n", p.name(), p.startSeconds(),
                    p.endSeconds(), no.count(), phase(w0, p.name()).operations().get("newOrder").count(),
                    phase(w1, p.name()).operations().get("newOrder").count(), no.opsPerSecond(), no.p95(), no.p99(),
                    m.metrics().get("unavailableSeconds." + p.name()));
        }

        AdversityRunTest.Outcome dashboard = AdversityRunTest.tpcc("report", "dashboard", merged.toString());
        assertEquals(0, dashboard.code(), dashboard.err() + dashboard.out());
        String page = Files.readString(merged.resolve("dashboard.html"));
        assertTrue(page.contains("recovered"), "the dashboard shows the restart's recovery");
    }

    /** The merged run's rule figures and its newOrder intervals from the restart on, for a failure's message. */
    private static String afterRestart(RunResult m, DisruptionRecord d) {
        StringBuilder b = new StringBuilder("floor ").append(m.metrics().get("recoveryFloorOpsPerSecond"))
                .append("/s, ceiling ").append(m.metrics().get("recoveryCeilingP95Ms")).append(" ms, hold share ")
                .append(m.metrics().get("recoveryHoldShare")).append("; newOrder t/s/count/p95:");
        for (Interval i : m.intervals()) {
            IntervalOperation no = i.operations().get("newOrder");
            if (i.t() >= d.startSeconds()) {
                b.append(String.format(java.util.Locale.ROOT, " %.2f/%.2f/%d/%.1f", i.t(), i.seconds(),
                        no == null ? 0 : no.count(), no == null ? 0.0 : no.p95()));
            }
        }
        return b.toString();
    }

    private static AdversityRunTest.Outcome worker(int index, String startAt, Path plan, String url, String user,
                                                   String password, Path tmp) {
        return AdversityRunTest.tpcc("run", "--plan", plan.toString(), "--url", url, "--user", user,
                "--password", password, "--warehouses", "2", "--clients", "4", "--worker", index + "/2",
                "--start-at", startAt, "--seed", "3", "--out", tmp.resolve("w" + index).toString());
    }

    private static DisruptionRecord single(RunResult r) {
        assertEquals(1, r.disruptions().size(), r.disruptions().toString());
        return r.disruptions().get(0);
    }

    private static Phase phase(RunResult r, String name) {
        return r.phases().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    private static double seconds(String instant) {
        return Instant.parse(instant).toEpochMilli() / 1000.0;
    }
}
