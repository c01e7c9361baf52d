package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.sql.adversity.Toxiproxy;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import dev.gauntlet.tpcc.checks.NothingLost;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code run --plan}: a short plan with every kind of fault on the embedded primary and synchronous standby runs
 * through them all with the core's error policy (every disruption done and judged, nothing lost, consistent data
 * after), and plans a target cannot take are refused in one line before anything starts.
 */
@ExtendWith(PostgresExtension.class)
@Tag("long")
class AdversityRunTest {

    record Outcome(int code, String out, String err) {
    }

    static Outcome tpcc(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = GauntletCommandLine.create(new TpccCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return new Outcome(cli.execute(args), out.toString(), err.toString());
    }

    static Path plan(Path dir, String text) throws Exception {
        Path file = dir.resolve("plan.yaml");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void aRunSurvivesEveryKindOfFaultAndLosesNothing(@TempDir Path tmp) throws Exception {
        boolean network = Toxiproxy.find().isPresent();
        Path file = plan(tmp, """
                standby: sync
                recovery: {operation: newOrder, hold: 3s}
                phases:
                  - {name: warmup, length: 4s, measured: false}
                  - {name: baseline, length: 12s}
                  - name: stress
                    length: 16s
                    disruptions:
                      - {kind: cdc, at: 0s, length: 14s}
                      - {kind: create-index, at: 1s, table: order_line, columns: ol_i_id}
                      - {kind: backup, at: 5s}
                      - {kind: checkpoint-storm, at: 9s, length: 3s, every: 1s}
                      - {kind: vacuum-full, at: 13s, table: district}
                  - name: faults
                    length: 50s
                    disruptions:
                      - {kind: disk-stall, at: 1s, length: 3s}
                      - {kind: restart-fast, at: 6s}
                      - {kind: restart-immediate, at: 22s}
                      - {kind: kill-backend, at: 38s}
                """ + (network ? """
                  - name: network
                    length: 20s
                    disruptions:
                      - {kind: latency, at: 1s, length: 3s, latency: 20ms}
                      - {kind: bandwidth, at: 5s, length: 2s, rate: 512}
                      - {kind: blackhole, at: 8s, length: 2s, share: 50%}
                      - {kind: reset, at: 12s, length: 1s}
                """ : "") + """
                  - name: outage
                    length: 30s
                    disruptions:
                      - {kind: terminate-sessions, at: 1s}
                      - {kind: zone-outage, at: 7s, length: 10s, promote-after: 2s}
                """);
        Path out = tmp.resolve("run");
        Outcome run = tpcc("run", "--plan", file.toString(), "--fresh", "--init", "--warehouses", "1", "--clients", "4",
                "--seed", "5", "--out", out.toString());
        assertEquals(0, run.code, run.err + run.out);
        RunResult r = ResultFile.read(out.resolve(ResultFile.NAME));
        assertEquals(network ? 15 : 11, r.disruptions().size());
        for (DisruptionRecord d : r.disruptions()) {
            assertEquals(DisruptionRecord.DONE, d.outcome(), d.toString());
            assertNotNull(d.recovery(), "judged: " + d);
            assertTrue(!d.notes().isEmpty(), d.toString());
        }
        Check lost = r.checks().stream().filter(c -> c.name().equals(NothingLost.NAME)).findFirst().orElseThrow();
        assertEquals(Check.Status.PASS, lost.status(), lost.detail());
        List<Check> failed = r.checks().stream().filter(c -> c.status() == Check.Status.FAIL).toList();
        assertTrue(failed.isEmpty(), failed.toString());
        assertTrue(r.checks().stream().filter(c -> c.name().startsWith("3.3.2.")).count() >= 11);
        assertEquals("sync", r.parameters().get("standby"));
        assertTrue(r.metrics().containsKey("unavailableSeconds"));
        assertTrue(r.operations().stream().mapToLong(o -> o.reconnects()).sum() > 0, "sessions were re-opened");
        Phase outage = r.phases().stream().filter(p -> p.name().equals("outage")).findFirst().orElseThrow();
        assertTrue(outage.operations().get("newOrder").count() > 0, "New-Orders committed on the promoted standby");
        assertTrue(r.intervals().stream().anyMatch(i -> i.failures().containsKey("connection")
                || i.failures().containsKey("reconnect")), "failures by class per interval");
        assertTrue(r.intervals().stream().anyMatch(i -> i.gauges().containsKey("replicationLagBytes")));
        assertTrue(Files.exists(out.resolve("dashboard.html")));
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("zone-outage"), "report.md lists the disruptions");
    }

    @Test
    void plansATargetCannotTakeAreRefusedInOneLine(TestDatabase server, @TempDir Path tmp) throws Exception {
        TestDatabase db = server.freshDatabase("tpcc_adversity_refusals");
        String url = db.jdbcUrl();
        Path stall = plan(tmp, "phases: [{name: a, length: 1m, disruptions: [{kind: disk-stall, length: 5s}]}]");
        Outcome refused = tpcc("run", "--plan", stall.toString(), "--url", url, "--user", db.user());
        assertEquals(2, refused.code);
        assertEquals(1, refused.err.strip().lines().count(), refused.err);
        assertTrue(refused.err.contains("disk-stall cannot run against --url: they need the server's processes"),
                refused.err);

        Path unknown = plan(tmp, "phases: [{name: a, length: 1m, disruptions: [{kind: meteor}]}]");
        Outcome bad = tpcc("run", "--plan", unknown.toString(), "--url", url, "--user", db.user());
        assertEquals(2, bad.code);
        assertTrue(bad.err.contains("unknown disruption 'meteor'"), bad.err);

        Path sqlOnly = plan(tmp, "phases: [{name: a, length: 1m, disruptions: [{kind: vacuum-full, table: district}]}]");
        Outcome twice = tpcc("run", "--plan", sqlOnly.toString(), "--url", url, "--user", db.user(), "--pool",
                "direct,pooled");
        assertEquals(2, twice.code);
        assertTrue(twice.err.contains("--plan runs once"), twice.err);

        Outcome missing = tpcc("run", "--plan", tmp.resolve("nope.yaml").toString(), "--url", url);
        assertEquals(2, missing.code);
        assertTrue(missing.err.contains("does not exist"), missing.err);
    }
}
