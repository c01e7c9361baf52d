package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.sql.lab.PatroniCluster;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lab up} and {@code lab down}: a real HA PostgreSQL cluster on this machine for a user's own experiments
 * (three Patroni nodes, three etcd members, HAProxy), the one {@code run --cluster patroni} starts for itself.
 */
@Command(name = "lab", mixinStandardHelpOptions = true,
        description = {"A Patroni cluster on this machine, as a lab: PostgreSQL nodes each run by Patroni, three etcd "
                + "members, HAProxy routing to the leader; every host in a network namespace of its own on one bridge, "
                + "so a node can be killed or cut off and the cluster itself decides who leads. Needs root and "
                + "Debian's packages: apt-get install patroni etcd-server haproxy postgresql iproute2."},
        footerHeading = "%nExamples:%n",
        footer = {"  ${ROOT-COMMAND-NAME} lab up --standby sync     # until Ctrl-C",
                "  ${ROOT-COMMAND-NAME} lab down                  # what a killed lab left behind"},
        subcommands = {LabCommand.Up.class, LabCommand.Down.class})
final class LabCommand implements Callable<Integer> {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** {@code lab} alone: its help, which lists up and down. */
    @Override
    public Integer call() {
        spec.commandLine().usage(System.out);
        return ExitCode.OK;
    }

    /** Throws {@link BadInputException}, one line naming what this machine lacks for a lab, or returns. */
    static void requireHost() {
        try {
            PatroniCluster.requireHost();
        } catch (IllegalStateException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }

    @Command(name = "up", mixinStandardHelpOptions = true,
            description = {"Starts a lab and keeps it up until Ctrl-C, then takes everything down (processes, "
                    + "namespaces, bridge, data), keeping its logs (Patroni's, PostgreSQL's, etcd's, HAProxy's, the "
                    + "nodes' patroni.yml without passwords) under /var/tmp/gauntlet/lab-logs. Prints its URLs "
                    + "(HAProxy's primary and replica ports, the multi-host URL) and the patronictl line to watch it."},
            footerHeading = "%nExamples:%n",
            footer = {"  ${ROOT-COMMAND-NAME} lab up",
                    "  ${ROOT-COMMAND-NAME} lab up --nodes 3 --standby sync --database tpcc",
                    "  ${ROOT-COMMAND-NAME} run --url URL --user postgres --password=SECRET ...   # in another shell"})
    static final class Up implements Callable<Integer> {

        @Option(names = "--nodes", paramLabel = "N", defaultValue = "3",
                description = "PostgreSQL nodes (default: ${DEFAULT-VALUE}).")
        int nodes;

        @Option(names = "--standby", paramLabel = "sync|async", defaultValue = "async",
                description = "Patroni's synchronous_mode: sync, a commit waits for a synchronous standby and only "
                        + "it may be promoted; async (default), a failover may lose what the new leader had not "
                        + "received (at most --maximum-lag-on-failover).")
        String standby;

        @Option(names = "--maximum-lag-on-failover", paramLabel = "BYTES", defaultValue = "1048576",
                description = "The most WAL a replica may be behind and still be promoted (default: ${DEFAULT-VALUE}).")
        long maximumLag;

        @Option(names = "--database", paramLabel = "NAME", defaultValue = "postgres",
                description = "A database to create (default: ${DEFAULT-VALUE}, which exists).")
        String database;

        /** Released by the shutdown hook of Ctrl-C. */
        private final CountDownLatch down = new CountDownLatch(1);

        @Override
        public Integer call() {
            PatroniCluster.Settings settings = settings(nodes, standby, maximumLag);
            requireHost();
            PrintStream out = System.out;
            out.println("Starting a Patroni lab (" + nodes + " nodes, " + standby + ")...");
            PatroniCluster cluster;
            try {
                cluster = PatroniCluster.start(settings, line -> out.println("  " + line));
            } catch (IllegalStateException e) {
                throw new RunFailedException(e.getMessage(), e);
            }
            try {
                cluster.createDatabase(database);
            } catch (IllegalStateException e) {
                cluster.close();
                throw new RunFailedException(e.getMessage(), e);
            }
            out.println("Lab up: " + String.join(", ", cluster.members().stream()
                    .map(m -> m.name() + " " + m.role() + " (" + m.host() + ")").toList()));
            out.println("  primary (HAProxy):  " + cluster.haproxyUrl(database));
            out.println("  replicas (HAProxy): " + cluster.haproxyReplicaUrl(database));
            out.println("  multi-host:         " + cluster.multiHostUrl(database));
            out.println("  user:               " + PatroniCluster.SUPERUSER + "   password: " + cluster.password());
            out.println("  watch:              " + cluster.patronictl());
            out.println("  files:              " + cluster.directory());
            out.println("  logs:               copied to " + cluster.logs() + " when it goes down");
            out.println("Ctrl-C takes it down.");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                cluster.close();
                down.countDown();
            }, "gauntlet-lab-up-down"));
            try {
                down.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ExitCode.OK;
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true,
            description = {"Removes what labs killed before they could take themselves down left on this machine: "
                    + "their processes, network namespaces, links and directories (under "
                    + "/var/tmp/gauntlet/lab). It takes down a lab that is still up too; one that is up takes itself "
                    + "down on Ctrl-C."},
            footerHeading = "%nExamples:%n",
            footer = {"  ${ROOT-COMMAND-NAME} lab down"})
    static final class Down implements Callable<Integer> {

        @Override
        public Integer call() {
            List<String> removed;
            try {
                removed = PatroniCluster.removeLeftovers();
            } catch (IllegalStateException e) {
                throw new RunFailedException(e.getMessage(), e);
            }
            System.out.println(removed.isEmpty() ? "Nothing of a lab was left on this machine."
                    : "Removed " + String.join(", ", removed));
            return ExitCode.OK;
        }
    }

    /** The settings {@code --nodes}, {@code --standby} and the lag give; bad ones are bad input. */
    static PatroniCluster.Settings settings(int nodes, String standby, long maximumLag) {
        if (!"sync".equals(standby) && !"async".equals(standby)) {
            throw new BadInputException("--standby must be sync or async, not '" + standby + "'");
        }
        if (maximumLag < 0) {
            throw new BadInputException("--maximum-lag-on-failover must not be negative");
        }
        try {
            return PatroniCluster.Settings.defaults().nodes(nodes).synchronous("sync".equals(standby))
                    .maximumLagOnFailover(maximumLag);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }
}
