package dev.gauntlet.sql.adversity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Plan files: what a valid one gives, how random starts are drawn, and one line for each way a plan is wrong. */
class PlanFileTest {

    private static final String PLAN = """
            name: test
            standby: async
            recovery: {operation: newOrder, hold: 20s}
            phases:
              - {name: warmup, length: 10s, measured: false}
              - {name: baseline, length: 30s}
              - name: stalls
                length: 2m
                disruptions:
                  - {kind: disk-stall, length: 5s, repeat: 4, random: true}
                  - {kind: create-index, at: 1s, table: order_line, columns: [ol_w_id, ol_i_id]}
              - name: outage
                length: 1m
                disruptions:
                  - {kind: zone-outage, at: 5s, length: 30s}
            """;

    @Test
    void aPlanGivesPhasesAndAScheduleThatTheSeedFixes() {
        AdversityPlan plan = PlanFile.parse("test.yaml", PLAN);
        assertEquals(Standby.ASYNC, plan.standby());
        assertEquals("baseline", plan.recovery().baselinePhase(), "the first measured phase by default");
        assertEquals("newOrder", plan.recovery().operation());
        assertEquals(Duration.ofSeconds(20), plan.recovery().hold());
        assertEquals(Duration.ofSeconds(220), plan.length());
        assertEquals(List.of(false, true, true, true), plan.phasePlans().stream().map(p -> p.measured()).toList());
        List<ScheduledDisruption> a = plan.schedule(7);
        assertEquals(a, plan.schedule(7), "the same seed, the same times");
        assertTrue(!a.equals(plan.schedule(8)), "another seed, other times");
        List<ScheduledDisruption> stalls = a.stream().filter(s -> s.name().startsWith("disk-stall#")).toList();
        assertEquals(4, stalls.size());
        for (int i = 0; i < stalls.size(); i++) {
            ScheduledDisruption s = stalls.get(i);
            assertTrue(s.at().compareTo(Duration.ofSeconds(40)) >= 0 && s.at().plus(s.length())
                    .compareTo(Duration.ofSeconds(160)) <= 0, "inside its phase: " + s);
            if (i > 0) {
                assertTrue(s.at().compareTo(stalls.get(i - 1).at().plus(Duration.ofSeconds(5))) >= 0, "no overlap");
            }
        }
        ScheduledDisruption index = a.stream().filter(s -> s.name().equals("create-index")).findFirst().orElseThrow();
        assertEquals(Duration.ofSeconds(41), index.at());
        assertEquals("ol_w_id,ol_i_id", index.spec().option("columns"));
        ScheduledDisruption outage = a.get(a.size() - 1);
        assertEquals(Duration.ofSeconds(165), outage.at());
        assertEquals("10s", outage.spec().option("promote-after"), "the kind's default");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "phases: []|the plan needs a list of phases",
            "phases: [{name: a, length: 10s, measured: false}]|no phase is measured",
            "phases: [{name: a}]|phase a: needs a positive length",
            "phases: [{name: a, length: 10s}, {name: a, length: 5s}]|two phases are called a",
            "phases: [{name: a, length: 1m, disruptions: [{kind: meteor}]}]|unknown disruption 'meteor'; known: create-index",
            "phases: [{name: a, length: 1m, disruptions: [{kind: disk-stall}]}]|(disk-stall): needs a positive length",
            "phases: [{name: a, length: 1m, disruptions: [{kind: restart-fast, length: 5s}]}]|runs to completion and takes no length",
            "phases: [{name: a, length: 1m, disruptions: [{kind: vacuum-full}]}]|(vacuum-full): needs table",
            "phases: [{name: a, length: 1m, disruptions: [{kind: latency, length: 5s, latncy: 5ms}]}]|unknown key 'latncy'",
            "phases: [{name: a, length: 1m, disruptions: [{kind: latency, length: 5s, share: 2}]}]|share: '2' is not a share",
            "phases: [{name: a, length: 1m, disruptions: [{kind: disk-stall, length: 5s, repeat: 3}]}]|needs every: TIME or random: true",
            "phases: [{name: a, length: 1m, disruptions: [{kind: vacuum-full, table: 'x; drop'}]}]|must be plain identifiers",
            "phases: [{name: a, length: 10s}]\\nrecovery: {baseline: b}|baseline phase 'b' is not a phase of the plan",
            "standby: maybe\\nphases: [{name: a, length: 10s}]|standby 'maybe' is not one of none, sync, async",
            "phases: [{name: a, length: 10s}]\\nextra: 1|the plan: unknown key 'extra'",
            "phases: [{name: a, length: fast}]|phase a: length: 'fast' is not a duration",
            "a: [b|not valid YAML",
            "phases: [{name: a, length: 10s}, {name: b, length: 1m, until: quiet}]|phase b: until takes one value, recovered (got 'quiet')",
            "phases: [{name: a, length: 10s, until: recovered}]|phase a: until: recovered needs the baseline phase (a) before it",
            "phases: [{name: a, length: 10s}, {name: b, length: 1m, until: recovered, disruptions: [{kind: restart-fast}]}]|phase b: a phase that ends once recovered has no disruptions",
    })
    void badPlansAreOneLineNamingTheFileAndThePlace(String text, String expected) {
        PlanFile.PlanException e = assertThrows(PlanFile.PlanException.class,
                () -> PlanFile.parse("p.yaml", text.replace("\\n", "\n")));
        assertTrue(e.getMessage().startsWith("p.yaml: "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }

    @Test
    void aPlansObjectivesAreReadAsSloTakesThemAndAWrongOneIsRefused() {
        AdversityPlan plan = PlanFile.parse("p.yaml", """
                slo:
                  - p99(newOrder) <= 50ms
                  - errors <= 1%
                phases:
                  - {name: baseline, length: 30s}
                """);
        assertEquals(List.of("p99(newOrder) <= 50ms", "errors <= 1%"),
                plan.objectives().stream().map(dev.gauntlet.core.objective.Objective::text).toList());
        assertEquals(List.of(), PlanFile.parse("p.yaml", "phases: [{name: a, length: 1m}]").objectives());
        PlanFile.PlanException typo = assertThrows(PlanFile.PlanException.class, () -> PlanFile.parse("p.yaml", """
                slo: [p99 <= 50]
                phases: [{name: a, length: 1m}]
                """));
        assertTrue(typo.getMessage().endsWith("slo: 'p99 <= 50': give the latency's unit (us, ms or s)"),
                typo.getMessage());
        assertThrows(PlanFile.PlanException.class, () -> PlanFile.parse("p.yaml", """
                slo: p99 <= 50ms
                phases: [{name: a, length: 1m}]
                """));
    }

    @Test
    void aPhaseUntilRecoveredEndsOnTheRecoveryRule() throws Exception {
        AdversityPlan plan = PlanFile.parse("p.yaml", """
                phases:
                  - {name: baseline, length: 30s}
                  - {name: outage, length: 20s, disruptions: [{kind: restart-fast, at: 5s}]}
                  - {name: recovery, length: 5m, until: recovered}
                """);
        List<dev.gauntlet.core.run.PhasePlan> phases = plan.phasePlans();
        assertNull(phases.get(1).until());
        assertTrue(phases.get(2).until() instanceof Recovered, "recovery ends on the rule");
        assertTrue(phases.get(2).until() != plan.phasePlans().get(2).until(), "each run plan gets a condition of its own");
        assertFalse(phases.get(2).until().holds(Duration.ZERO), "not before it has heard the run");
        assertEquals(List.of("recovery"), plan.recovery().recoveryPhases(), "the result's rule names it");
        List<dev.gauntlet.core.run.PhasePlan> fixed = plan.phasePlans(false);
        assertNull(fixed.get(2).until(), "driver processes of one run: its planned length");
        assertEquals(Duration.ofMinutes(5), fixed.get(2).length());
    }

    @Test
    void faultsThatWouldOverlapAreRefusedWhenScheduled() {
        AdversityPlan overlapping = PlanFile.parse("p.yaml", """
                phases:
                  - name: a
                    length: 1m
                    disruptions:
                      - {kind: disk-stall, at: 10s, length: 10s}
                      - {kind: latency, at: 15s, length: 10s}
                """);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> overlapping.schedule(1));
        assertTrue(e.getMessage().contains("disk-stall (at 10s for 10s) and latency (at 15s for 10s) overlap"),
                e.getMessage());
        AdversityPlan restartThenStall = PlanFile.parse("p.yaml", """
                phases:
                  - name: a
                    length: 1m
                    disruptions:
                      - {kind: restart-fast, at: 10s}
                      - {kind: disk-stall, at: 20s, length: 5s}
                """);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> restartThenStall.schedule(1)).getMessage()
                .contains("restart-fast disturbs for about 15s"));
        AdversityPlan stressOverlaps = PlanFile.parse("p.yaml", """
                phases:
                  - name: a
                    length: 1m
                    disruptions:
                      - {kind: cdc, length: 50s}
                      - {kind: disk-stall, at: 20s, length: 5s}
                """);
        assertEquals(2, stressOverlaps.schedule(1).size(), "operational stress overlaps faults");
        AdversityPlan tooMany = PlanFile.parse("p.yaml", """
                phases:
                  - name: a
                    length: 30s
                    disruptions:
                      - {kind: disk-stall, length: 10s, repeat: 3, random: true}
                """);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> tooMany.schedule(1)).getMessage()
                .contains("3 x disk-stall of 10s do not fit"));
    }

    @Test
    void aNetworkFaultSinglesOutServersByPlaceOrAddressAndAnUnknownOneIsRefused() {
        TargetHosts target = TargetHosts.ofUrl("jdbc:postgresql://db1:5432,db2:5433,db2:5434/shop").orElseThrow();
        assertEquals(List.of(1), target.positions(List.of("n2")));
        assertEquals(List.of(0, 2), target.positions(List.of("db2:5434", "n1")), "in the URL's order");
        assertEquals(List.of(1, 2), target.positions(List.of("db2")), "a bare host: every server on it");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> target.positions(List.of("n4"))).getMessage()
                .equals("'n4' is no server of the target (n1 = db1:5432, n2 = db2:5433, n3 = db2:5434)"));
        TargetHosts named = TargetHosts.ofUrl("jdbc:postgresql://n2:5432,n1:5432/shop").orElseThrow();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> named.positions(List.of("n1"))).getMessage()
                .contains("write host:port"), "a host called n1 that is not n1 is ambiguous");

        AdversityPlan plan = PlanFile.parse("p.yaml", """
                phases:
                  - name: a
                    length: 1m
                    disruptions:
                      - {kind: latency, at: 5s, length: 5s}
                      - {kind: blackhole, at: 20s, length: 5s, hosts: [n3, db1:5432]}
                """);
        assertEquals(List.of("n3", "db1:5432"), plan.schedule(1).get(1).spec().listOption("hosts"));
        assertEquals(List.of(), plan.schedule(1).get(0).spec().listOption("hosts"), "none: every server");
        plan.checkHosts(target);
        assertEquals("phase a, disruption 2 (blackhole): hosts: 'n3' is no server of the target (n1 = db1:5432)",
                assertThrows(IllegalArgumentException.class, () -> plan.checkHosts(
                        TargetHosts.ofUrl("jdbc:postgresql://db1/shop").orElseThrow())).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> plan.checkHosts(null)).getMessage()
                .endsWith("hosts: 'n3' is no server of the embedded topology, whose one server is n1 (no standby)"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> plan.withStandby(Standby.SYNC).checkHosts(null))
                .getMessage().endsWith("whose servers are n1 (the primary at start) and n2 (the standby)"));
        PlanFile.parse("p.yaml", "phases: [{name: a, length: 1m, disruptions: [{kind: reset, length: 5s, "
                + "hosts: [n2]}]}]").withStandby(Standby.SYNC).checkHosts(null);

        assertTrue(assertThrows(IllegalArgumentException.class, () -> PlanFile.parse("p.yaml", "phases: [{name: a, "
                + "length: 1m, disruptions: [{kind: reset, length: 5s, hosts: []}]}]")).getMessage()
                .equals("p.yaml: phase a, disruption 1 (reset): hosts: an empty list singles out no server; leave "
                        + "hosts out for every server"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PlanFile.parse("p.yaml", "phases: [{name: a, "
                + "length: 1m, disruptions: [{kind: reset, length: 5s, hosts: ['db 1']}]}]")).getMessage()
                .contains("hosts: 'db 1' is not a server's name"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PlanFile.parse("p.yaml", "phases: [{name: a, "
                + "length: 1m, disruptions: [{kind: restart-fast, hosts: [n1]}]}]")).getMessage()
                .contains("unknown key 'hosts'"), "only network faults single out servers");

        AdversityPlan twoServers = PlanFile.parse("p.yaml", """
                phases:
                  - name: a
                    length: 1m
                    disruptions:
                      - {kind: blackhole, at: 5s, length: 10s, hosts: [n1]}
                      - {kind: latency, at: 10s, length: 10s, hosts: [n2]}
                """);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> twoServers.schedule(1)).getMessage()
                .endsWith("overlap; faults cannot coexist, on different servers too (recovery is judged on the whole "
                        + "workload from each one's end; one network fault takes several hosts)"));
    }

    @Test
    void aPlanNamesTheClusterItStartsAndItsFaultsTheirNodes() {
        AdversityPlan shortForm = PlanFile.parse("p.yaml", """
                cluster: patroni
                phases:
                  - name: a
                    length: 2m
                    disruptions:
                      - {kind: node-kill, at: 5s}
                      - {kind: node-partition, at: 40s, length: 10s, node: n2, from: [dcs, nodes]}
                      - {kind: switchover, at: 70s, to: sync-standby}
                """);
        assertEquals(ClusterSpec.patroni(), shortForm.cluster());
        assertEquals(Standby.SYNC, shortForm.standby(), "a cluster's standby is sync unless the plan says async");
        assertEquals(3, shortForm.schedule(1).size());
        AdversityPlan longForm = PlanFile.parse("p.yaml", """
                cluster: {nodes: 5, route: multi-host, maximum-lag-on-failover: 16MB}
                standby: async
                phases: [{name: a, length: 1m}]
                """);
        assertEquals(new ClusterSpec("patroni", 5, "multi-host", 16L << 20), longForm.cluster());
        assertEquals(Standby.ASYNC, longForm.standby());
        assertEquals(null, PlanFile.parse("p.yaml", "phases: [{name: a, length: 1m}]").cluster());

        String[][] refused = {
                {"cluster: cockroach", "cluster: cluster 'cockroach' is not one Gauntlet can start; patroni is"},
                {"cluster: {nodes: 1}", "cluster: a Patroni cluster here has 2 to 9 nodes, not 1"},
                {"cluster: {route: dns}", "cluster: route must be haproxy or multi-host, not 'dns'"},
                {"cluster: {maximum-lag-on-failover: lots}", "is not a size like 1048576, 512kB, 16MB or 1GB"},
                {"cluster: {zones: 3}", "cluster: unknown key 'zones'"},
                {"cluster: patroni\nstandby: none", "a cluster has standbys: standby is sync or async with cluster"},
        };
        for (String[] r : refused) {
            String text = r[0] + "\nphases: [{name: a, length: 1m}]";
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PlanFile.parse("p.yaml",
                    text));
            assertTrue(e.getMessage().startsWith("p.yaml: ") && e.getMessage().contains(r[1]), e.getMessage());
        }
        String[][] badOptions = {
                {"{kind: node-kill, node: primary}", "node: 'primary' is not a member: leader, sync-standby, replica"},
                {"{kind: node-kill, length: 10s}", "a length needs patroni: true"},
                {"{kind: node-kill, patroni: maybe}", "patroni: must be true or false (got maybe)"},
                {"{kind: node-partition, length: 10s, from: [dcs, disk]}", "from: 'disk' is not a side"},
                {"{kind: switchover, to: leader}", "to: 'leader' is not a candidate"},
                {"{kind: dcs-outage}", "needs a positive length"},
                {"{kind: switchover, length: 5s}", "runs to completion and takes no length"},
        };
        for (String[] b : badOptions) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PlanFile.parse("p.yaml",
                    "cluster: patroni\nphases: [{name: a, length: 1m, disruptions: [" + b[0] + "]}]"));
            assertTrue(e.getMessage().contains(b[1]), e.getMessage());
        }
    }

    @Test
    void theShippedPlansAreValid() {
        for (String name : List.of("pua-smoke.yaml", "pua-postgres.yaml")) {
            Path file = Path.of("..", "plans", name);
            AdversityPlan plan = PlanFile.read(file);
            List<ScheduledDisruption> schedule = plan.schedule(42);
            for (DisruptionKind kind : DisruptionKind.values()) {
                if (kind == DisruptionKind.COMMAND || kind.need() == DisruptionKind.Need.CLUSTER) {
                    continue; // the user's own commands: plans/examples (ExamplePlansTest); a cluster's: pua-patroni
                }
                assertTrue(schedule.stream().anyMatch(s -> s.spec().kind() == kind), name + " has no " + kind.label());
            }
        }
        AdversityPlan patroni = PlanFile.read(Path.of("..", "plans", "pua-patroni.yaml"));
        assertEquals(new ClusterSpec("patroni", 3, "haproxy", 1L << 30), patroni.cluster());
        assertEquals(Standby.SYNC, patroni.standby());
        assertEquals(java.time.Duration.ofMinutes(30), patroni.length());
        List<ScheduledDisruption> onCluster = patroni.schedule(42);
        for (DisruptionKind kind : DisruptionKind.needing(DisruptionKind.Need.CLUSTER)) {
            assertTrue(onCluster.stream().anyMatch(s -> s.spec().kind() == kind), "pua-patroni has no " + kind.label());
        }
        assertTrue(onCluster.stream().allMatch(s -> s.spec().kind().need() == DisruptionKind.Need.CLUSTER
                || s.spec().kind().need() == DisruptionKind.Need.SQL), "only what a cluster can take");
        assertEquals(Standby.SYNC, PlanFile.read(Path.of("..", "plans", "pua-postgres.yaml")).standby());
        // The failover-loss plan: one zone outage whose standby is held behind first, asynchronous by default.
        AdversityPlan loss = PlanFile.read(Path.of("..", "plans", "pua-failover-loss.yaml"));
        assertEquals(Standby.ASYNC, loss.standby());
        List<ScheduledDisruption> outage = loss.schedule(42);
        assertEquals(1, outage.size());
        assertEquals(DisruptionKind.ZONE_OUTAGE, outage.get(0).spec().kind());
        assertEquals(java.time.Duration.ofSeconds(5), outage.get(0).spec().durationOption("hold-standby"));
    }
}
