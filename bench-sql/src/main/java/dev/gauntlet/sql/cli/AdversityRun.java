package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.cli.RunOptions;
import dev.gauntlet.core.report.RecoveryAnalysis;
import dev.gauntlet.core.result.Redaction;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timeline;
import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.core.run.DisruptionPlan;
import dev.gauntlet.core.result.Durations;
import dev.gauntlet.core.run.Probe;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.DatabaseUnavailableException;
import dev.gauntlet.sql.PoolMode;
import dev.gauntlet.sql.adversity.AdversityPlan;
import dev.gauntlet.sql.adversity.ClusterSpec;
import dev.gauntlet.sql.adversity.DisruptionKind;
import dev.gauntlet.sql.adversity.Disruptions;
import dev.gauntlet.sql.adversity.PlanFile;
import dev.gauntlet.sql.adversity.PlanPhase;
import dev.gauntlet.sql.adversity.ScheduleListing;
import dev.gauntlet.sql.adversity.ScheduledDisruption;
import dev.gauntlet.sql.adversity.ServerProxies;
import dev.gauntlet.sql.adversity.Standby;
import dev.gauntlet.sql.adversity.SystemUnderTest;
import dev.gauntlet.sql.adversity.TargetHosts;
import dev.gauntlet.sql.adversity.Toxiproxy;
import dev.gauntlet.sql.lab.PatroniCluster;
import dev.gauntlet.sql.observe.ServerHealth;
import dev.gauntlet.sql.observe.WalBytes;
import dev.gauntlet.sql.server.LocalPostgres;
import dev.gauntlet.sql.server.ReplicatedPostgres;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A run through faults ({@code run --plan FILE}), from the plan file to the judged result: the plan read and checked
 * against what the target can take before anything starts; the system under test made (the embedded primary and
 * standby, or the given URL; Toxiproxy in front when the plan has network faults); the plan's phases and disruptions
 * put into the run plan; the server's own view added as probes; and recovery judged on the result.
 *
 * <p>One driver process of several ({@code --worker I/N}, {@code --start-at}) follows the same timeline from the
 * common start: every phase lasts its planned length (a phase {@code until: recovered} too, since each process would
 * hear its own share of the workload recover at its own moment), worker 0 alone injects the disruptions and records
 * what they did, the others record them as planned; {@code report merge} then judges recovery on the merged timeline.
 * The processes must share the target (a {@code --url}), and network faults, made by a Toxiproxy in front of one
 * process's connections, would reach worker 0's clients only, so both are refused.
 */
final class AdversityRun implements AutoCloseable {

    private final Path file;
    private final AdversityPlan plan;
    private final List<ScheduledDisruption> schedule;
    private final WorkerShare share;
    private ServerProxies proxies;
    private SystemUnderTest system;

    private AdversityRun(Path file, AdversityPlan plan, List<ScheduledDisruption> schedule, WorkerShare share) {
        this.file = file;
        this.plan = plan;
        this.schedule = schedule;
        this.share = share;
    }

    /** The objectives the plan judges its run by ({@code slo:}). */
    List<dev.gauntlet.core.objective.Objective> objectives() {
        return plan.objectives();
    }

    /**
     * Reads and checks the plan of {@code --plan} (its standby replaced by {@code --standby} if given): its own form,
     * its schedule for the run's seed, and whether the target can take every disruption, from this process's
     * {@code --worker} share of the run too. Every refusal is a {@link BadInputException}; nothing has started yet.
     */
    static AdversityRun prepare(RunOptions options, ConnectionOptions connection) {
        Path file = options.planFile();
        String standby = options.standby();
        long seed = options.seed();
        WorkerShare share = options.share();
        AdversityPlan plan;
        List<ScheduledDisruption> schedule;
        try {
            plan = PlanFile.read(file);
            if (standby != null) {
                try {
                    plan = plan.withStandby(Standby.parse(standby));
                } catch (IllegalArgumentException e) {
                    throw new BadInputException("--standby: " + e.getMessage(), e);
                }
            }
            schedule = plan.schedule(seed);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e instanceof PlanFile.PlanException ? e.getMessage() : file + ": " + e.getMessage(), e);
        }
        if (connection.cluster()) {
            connection.checkCluster();
            ClusterSpec given = plan.cluster() != null ? plan.cluster() : ClusterSpec.patroni();
            try {
                plan = plan.withCluster(new ClusterSpec(ClusterSpec.PATRONI, connection.clusterNodes,
                        connection.clusterRoute, given.maximumLagOnFailover()));
                if (plan.standby() == Standby.NONE || plan.cluster() == null) {
                    plan = plan.withStandby(Standby.parse(connection.clusterStandby));
                }
            } catch (IllegalArgumentException e) {
                throw new BadInputException("--cluster: " + e.getMessage(), e);
            }
        }
        List<String> clusterKinds = plan.needing(DisruptionKind.Need.CLUSTER);
        List<String> aimed = plan.phases().stream().flatMap(p -> p.disruptions().stream())
                .filter(d -> d.kind().aimsAtANode() && d.kind().need() != DisruptionKind.Need.CLUSTER
                        && !"leader".equals(d.option("node"))).map(d -> d.label()).distinct().toList();
        if (plan.cluster() == null && !aimed.isEmpty()) {
            throw new BadInputException(file + ": " + String.join(", ", aimed) + ": node names a member of a cluster "
                    + "Gauntlet starts (cluster: patroni); elsewhere they act on the primary (leave node out)");
        }
        if (plan.cluster() != null) {
            refuseOnCluster(file, plan, connection, share);
        } else if (!clusterKinds.isEmpty()) {
            throw new BadInputException(file + ": " + String.join(", ", clusterKinds) + " need "
                    + DisruptionKind.Need.CLUSTER.description() + "; against your own cluster (--url) run its faults "
                    + "as kind: command disruptions (plans/examples/patroni.yaml)");
        }
        if (connection.pools().contains(PoolMode.PGBOUNCER)) {
            throw new BadInputException("--plan: --pool pgbouncer is not supported (PgBouncer would not follow a failover); "
                    + "use direct or pooled");
        }
        List<String> network = plan.needing(DisruptionKind.Need.TOXIPROXY);
        TargetHosts target = null;
        // A cluster's servers are its own; its network faults take the workload's route (refuseOnCluster).
        boolean given = plan.cluster() == null && !connection.embedded();
        if (given) {
            for (DisruptionKind.Need need : List.of(DisruptionKind.Need.SERVER_PROCESSES,
                    DisruptionKind.Need.SERVER_FILES, DisruptionKind.Need.STANDBY)) {
                List<String> refused = plan.needing(need);
                if (!refused.isEmpty()) {
                    throw new BadInputException(file + ": " + String.join(", ", refused) + " cannot run against --url: "
                            + "they need " + need.description() + "; against any server run SQL-level disruptions, "
                            + "network faults and the user's own commands");
                }
            }
            target = TargetHosts.ofUrl(connection.url).orElse(null);
            if (target == null && !network.isEmpty()) {
                throw new BadInputException(file + ": " + String.join(", ", network) + " need a --url of the form "
                        + "jdbc:postgresql://HOST[:PORT][,HOST[:PORT]...]/DATABASE (a proxy in front of each server), "
                        + "not '" + Redaction.url(connection.url) + "'");
            }
        } else if (plan.cluster() == null && plan.standby() == Standby.NONE
                && !plan.needing(DisruptionKind.Need.STANDBY).isEmpty()) {
            throw new BadInputException(file + ": " + String.join(", ", plan.needing(DisruptionKind.Need.STANDBY))
                    + " needs a standby to fail over to; set standby: sync or async");
        }
        if (!share.whole() && !options.seedGiven() && plan.drawsAtRandom()) {
            throw new BadInputException(file + ": with --worker " + share + ", disruptions at random times need --seed: "
                    + "every driver process draws the schedule from it, so all must be given the same");
        }
        if (!share.whole() && connection.embedded()) {
            throw new BadInputException("--plan with --worker " + share + " needs --url: the driver processes of one run "
                    + "drive one database, and without --url each would start embedded servers of its own");
        }
        if (!share.whole() && !network.isEmpty()) {
            throw new BadInputException(file + ": " + String.join(", ", network)
                    + " cannot run with --worker: Toxiproxy sits in front of one driver process's connections, so "
                    + "worker 0's network faults would not reach the other processes' clients");
        }
        if (!network.isEmpty() && plan.cluster() == null) {
            try {
                plan.checkHosts(target);
            } catch (IllegalArgumentException e) {
                throw new BadInputException(file + ": " + e.getMessage(), e);
            }
        }
        if (!network.isEmpty() && Toxiproxy.find().isEmpty()) {
            throw new BadInputException(file + ": " + String.join(", ", network)
                    + " need Toxiproxy, which is not installed: " + Toxiproxy.INSTALL);
        }
        return new AdversityRun(file, plan, schedule, share);
    }

    /**
     * Refuses what a plan on a cluster Gauntlet starts cannot do: a --url beside it, a standby of none, the kinds that
     * need the embedded servers' processes or files, several driver processes (each would start a cluster), and
     * network faults singling out hosts (on a cluster they take the workload's route; node-partition cuts a node).
     */
    private static void refuseOnCluster(Path file, AdversityPlan plan, ConnectionOptions connection,
                                        WorkerShare share) {
        if (connection.url != null) {
            throw new BadInputException(file + ": the plan starts its own cluster (cluster: patroni): give no --url");
        }
        if (plan.standby() == Standby.NONE) {
            throw new BadInputException(file + ": a cluster's standby is sync or async, not none");
        }
        for (DisruptionKind.Need need : List.of(DisruptionKind.Need.SERVER_PROCESSES, DisruptionKind.Need.SERVER_FILES,
                DisruptionKind.Need.STANDBY)) {
            List<String> refused = plan.phases().stream().flatMap(p -> p.disruptions().stream())
                    .filter(d -> d.kind().need() == need && !d.kind().aimsAtANode()).map(d -> d.label()).distinct()
                    .toList();
            if (!refused.isEmpty()) {
                throw new BadInputException(file + ": " + String.join(", ", refused) + " cannot run on a cluster: "
                        + "they need " + need.description() + "; on a cluster run node-kill, node-partition, "
                        + "dcs-outage, switchover, rolling-restart, disk-stall and restart-fast (with node), "
                        + "SQL-level disruptions and network faults");
            }
        }
        if (!share.whole()) {
            throw new BadInputException(file + ": a plan on a cluster Gauntlet starts cannot run with --worker " + share
                    + ": each driver process would start a cluster of its own; start one with 'lab up' and give "
                    + "every process its URL");
        }
        boolean singled = plan.phases().stream().flatMap(p -> p.disruptions().stream())
                .anyMatch(d -> !d.listOption("hosts").isEmpty());
        if (singled) {
            throw new BadInputException(file + ": on a cluster a network fault takes the workload's whole route; "
                    + "leave hosts out (node-partition cuts one node off)");
        }
    }

    /**
     * Opens the system under test, says on {@code out} what it is, and returns the database: straight to the servers
     * for loading, administration, probes and checks, the workload's sessions through Toxiproxy when the plan has
     * network faults ({@link Database#sessions()}). Closing the database stops the embedded servers.
     */
    Database open(ConnectionOptions connection, String databaseName, PrintStream out) {
        boolean network = plan.needs().contains(DisruptionKind.Need.TOXIPROXY);
        out.printf(Locale.ROOT, "Plan %s (%s): %d phases, %s, %d disruptions%n", plan.name(), file,
                plan.phases().size(), Durations.format(plan.length()), schedule.size());
        try {
            if (plan.cluster() != null) {
                ClusterSpec c = plan.cluster();
                PatroniCluster.Settings settings;
                try {
                    settings = PatroniCluster.Settings.defaults().nodes(c.nodes())
                            .synchronous(plan.standby() == Standby.SYNC).maximumLagOnFailover(c.maximumLagOnFailover());
                } catch (IllegalArgumentException e) {
                    throw new BadInputException(file + ": cluster: " + e.getMessage(), e);
                }
                ConnectionOptions.Lab lab = ConnectionOptions.openLab(settings, c.route(), databaseName, out);
                Database db = lab.database();
                try {
                    if (network) {
                        proxies = ServerProxies.start(lab.url());
                        db = db.withSessionsThrough(lab.cluster().settings(proxies.sessionUrl()));
                    }
                    system = new SystemUnderTest(lab.cluster().settings(lab.url()), databaseName, null, proxies,
                            lab.cluster());
                    out.printf(Locale.ROOT, "  patroni: ttl %d s, loop_wait %d s, retry_timeout %d s, "
                            + "maximum_lag_on_failover %,d bytes%n", settings.ttl(), settings.loopWait(),
                            settings.retryTimeout(), settings.maximumLagOnFailover());
                    sayProxied(out);
                    return db;
                } catch (IOException | RuntimeException e) {
                    db.close();
                    throw e;
                }
            }
            if (!connection.embedded()) {
                if (!connection.url.startsWith("jdbc:")) {
                    throw new BadInputException("--url '" + Redaction.url(connection.url)
                            + "' is not a JDBC URL; expected jdbc:postgresql://HOST:PORT/DATABASE");
                }
                ConnectionSettings given = connection.settings(connection.url);
                Database db = Database.probe(given, null);
                if (network) {
                    proxies = ServerProxies.start(connection.url);
                    db = db.withSessionsThrough(connection.settings(proxies.sessionUrl()));
                }
                system = new SystemUnderTest(given, databaseName, null, proxies);
                out.println("Database: " + db.version());
                out.println("  url:     " + Redaction.url(connection.url));
                sayProxied(out);
                if (!share.whole()) {
                    out.println("  workers: " + workers());
                }
                if (plan.standby() != Standby.NONE) {
                    out.println("  note:    the plan's standby applies to the embedded servers only");
                }
                return db;
            }
            boolean standby = plan.standby() != Standby.NONE;
            out.println("Starting embedded PostgreSQL: a primary" + (standby ? " and a" + (plan.standby() == Standby.SYNC
                    ? " synchronous" : "n asynchronous") + " standby" : "") + " (no --url given)...");
            ReplicatedPostgres.Builder embedded = ReplicatedPostgres.inCache().fresh(connection.fresh)
                    .settings(LocalPostgres.defaultSettings());
            ReplicatedPostgres servers = switch (plan.standby()) {
                case NONE -> embedded.build();
                case SYNC -> embedded.synchronousStandby().build();
                case ASYNC -> embedded.asynchronousStandby().build();
            };
            Runtime.getRuntime().addShutdownHook(new Thread(servers::close, "gauntlet-embedded-postgres-stop"));
            servers.start(message -> out.println("  " + message));
            try {
                servers.primary().createDatabaseIfAbsent(databaseName);
                // Straight to the servers, primary first, with targetServerType=primary: administration and probes
                // follow a failover as the workload does, and a fault on the workload's path leaves them alone.
                String url = ReplicatedPostgres.jdbcUrl(servers.ports(), databaseName);
                Database db = Database.probe(new ConnectionSettings(url, servers.primary().user(), null), servers);
                if (network) {
                    proxies = ServerProxies.start(url);
                    db = db.withSessionsThrough(new ConnectionSettings(proxies.sessionUrl(), servers.primary().user(),
                            null));
                }
                system = new SystemUnderTest(null, databaseName, servers, proxies);
                out.println("Database: embedded " + db.version());
                out.println("  primary: localhost:" + servers.primary().port() + ", data " + servers.primary().dataDirectory()
                        + servers.fileSystem().map(fs -> " (a loop-mounted ext4 of its own)").orElse(""));
                servers.standby().ifPresent(s -> out.println("  standby: localhost:" + s.port() + ", "
                        + (servers.synchronous() ? "synchronous" : "asynchronous") + " streaming replication"));
                out.println("  url:     " + url);
                sayProxied(out);
                return db;
            } catch (RuntimeException | IOException e) {
                servers.close();
                throw e;
            }
        } catch (DatabaseUnavailableException e) {
            close();
            throw new BadInputException(e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            close();
            if (e instanceof BadInputException b) {
                throw b;
            }
            throw new RunFailedException("could not set up the plan's database: " + e.getMessage(), e);
        }
    }

    /** What this process of a split run does with the plan (the rule of docs/adversity.md, "Many drivers"). */
    private String workers() {
        return "this is worker " + share + "; " + (share.index() == 0
                ? "it injects the plan's disruptions, the other workers record them as planned"
                : "worker 0 injects the plan's disruptions, this one records them as planned")
                + (plan.recoveryPhases().isEmpty() ? "" : "; phases until: recovered (" + String.join(", ",
                plan.phases().stream().filter(PlanPhase::untilRecovered)
                        .map(p -> p.name() + " " + Durations.format(p.length())).toList())
                + ") last their planned length in every worker");
    }

    /** When the workload goes through Toxiproxy: each server and the proxy in front of it. */
    private void sayProxied(PrintStream out) {
        if (proxies == null) {
            return;
        }
        List<TargetHosts.HostPort> via = TargetHosts.ofUrl(proxies.sessionUrl()).orElseThrow().hosts();
        List<String> each = new ArrayList<>();
        for (int i = 0; i < via.size(); i++) {
            each.add(TargetHosts.name(i) + " = " + proxies.servers().hosts().get(i) + " via " + via.get(i));
        }
        out.println("  workload through Toxiproxy: " + String.join(", ", each) + "; administration and probes "
                + "straight to the servers");
    }

    /**
     * {@code --dry-run}: the schedule printed on {@code out} (the target's hosts from {@code --url}, without
     * connecting), nothing started.
     */
    void dryRun(ConnectionOptions connection, PrintStream out) {
        TargetHosts hosts = null;
        if (!connection.embedded() && plan.cluster() == null) {
            hosts = TargetHosts.ofUrl(connection.url).orElseThrow(() -> new BadInputException("--url '"
                    + Redaction.url(connection.url) + "' is not a jdbc:postgresql://HOST[:PORT][,HOST[:PORT]...]"
                    + "/DATABASE URL"));
        }
        ScheduleListing.write(plan, file.toString(), schedule, hosts, commandDirectory(), out);
        if (!share.whole()) {
            out.println("Workers: " + workers());
        }
    }

    /** Where the plan's commands run: the plan file's directory; the current one for a shipped plan read by name. */
    private Path commandDirectory() {
        Path parent = file.toAbsolutePath().getParent();
        return java.nio.file.Files.isRegularFile(file) && parent != null ? parent : null;
    }

    /**
     * The base plan with the plan file's phases and disruptions, reported every second unless told otherwise; in a
     * worker other than 0, the disruptions as planned only (worker 0 injects them), and in every worker of several,
     * phases of their planned length.
     */
    RunPlan apply(RunPlan base, boolean reportEveryGiven) {
        RunPlan.Builder b = base.toBuilder();
        plan.phasePlans(share.whole()).forEach(b::phase);
        for (DisruptionPlan d : Disruptions.plans(schedule, system, commandDirectory())) {
            b.disruption(share.index() == 0 ? d : d.elsewhere());
        }
        if (!reportEveryGiven) {
            b.reportEvery(java.time.Duration.ofSeconds(1));
        }
        return b.build();
    }

    /** The server's own view: WAL per phase; replication lag, WAL rate and checkpoints every interval. */
    List<Probe> probes(Database db) {
        return List.of(new WalBytes(db.settings()), new ServerHealth(db.settings()));
    }

    /** The plan's name, standby and recovery rule, recorded in the result's parameters. */
    java.util.Map<String, Object> parameters() {
        java.util.Map<String, Object> p = new java.util.LinkedHashMap<>();
        p.put("plan", plan.name());
        p.put("standby", plan.standby().label());
        if (plan.cluster() != null) {
            PatroniCluster.Settings d = PatroniCluster.Settings.defaults();
            p.put("cluster", plan.cluster().kind());
            p.put("clusterNodes", plan.cluster().nodes());
            p.put("clusterRoute", plan.cluster().route());
            p.put("maximumLagOnFailover", plan.cluster().maximumLagOnFailover());
            p.put("patroniTtl", d.ttl());
            p.put("patroniLoopWait", d.loopWait());
            p.put("patroniRetryTimeout", d.retryTimeout());
        }
        p.put("recoveryBaseline", plan.recovery().baselinePhase());
        if (plan.recovery().operation() != null) {
            p.put("recoveryOperation", plan.recovery().operation());
        }
        return p;
    }

    /**
     * The result with each disruption's recovery and the unavailability figures, read from the run's every reporting
     * interval ({@code timeline}: the result may keep them downsampled).
     */
    RunResult judge(RunResult result, Timeline timeline) {
        return RecoveryAnalysis.apply(result, timeline, plan.recovery());
    }

    @Override
    public void close() {
        if (proxies != null) {
            proxies.close();
            proxies = null;
        }
    }
}
