package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.NameList;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.result.Redaction;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.DatabaseUnavailableException;
import dev.gauntlet.sql.JdbcTarget;
import dev.gauntlet.sql.PoolMode;
import dev.gauntlet.sql.lab.PatroniCluster;
import dev.gauntlet.sql.server.LocalPostgres;
import dev.gauntlet.sql.server.PgBouncer;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import picocli.CommandLine.Option;

/** The database options every SQL workload spells the same way. */
public final class ConnectionOptions {

    /** Clients assumed by the overloads of {@code target} that are not told, for PgBouncer's max_client_conn. */
    static final int DEFAULT_CLIENTS = 1000;

    @Option(names = "--url", paramLabel = "JDBC_URL",
            description = {"Database to test, e.g. jdbc:postgresql://db1:5432/bench or a multi-host URL "
                    + "(jdbc:postgresql://n1:26257,n2:26257/tpcc?targetServerType=primary).",
                    "Through your own PgBouncer in transaction mode add ?prepareThreshold=0, "
                            + "or let --pool pgbouncer start one.",
                    "Without --url an embedded PostgreSQL is started; its data is kept between runs.",
                    "Sessions keep the server's settings (postgresql.conf, ALTER DATABASE/ROLE, the URL's options=): "
                            + "Gauntlet sets only application_name (gauntlet, unless the URL names one) and runs "
                            + "with auto-commit off; the isolation level is the server's, except where a workload "
                            + "has an --isolation option (bench-tpcc sets read committed on PostgreSQL and "
                            + "serializable on CockroachDB unless told otherwise: its checks are written for them)."})
    String url;

    @Option(names = "--user", paramLabel = "NAME", description = "Database user (default: $PGUSER, else postgres).")
    String user;

    @Option(names = "--password", paramLabel = "SECRET", arity = "0..1", interactive = true,
            description = "Password (default: $PGPASSWORD). Give --password alone to be prompted. Never printed or stored.")
    String password;

    @Option(names = "--pool", paramLabel = "MODE", defaultValue = "direct", split = ",",
            description = {"direct: each client owns a connection for its whole life.",
                    "pooled: clients share --pool-size connections, borrowed per transaction "
                            + "(emulates PgBouncer transaction pooling; pool wait is reported on its own; "
                            + "server-side prepared statements off).",
                    "pgbouncer: a real PgBouncer (installed separately) started in transaction mode in front of "
                            + "the database with --pool-size server connections; each client owns a connection "
                            + "to it; server-side prepared statements off.",
                    "connect: a new connection for each transaction, closed at its end (pgbench's -C); the time to "
                            + "connect is reported on its own, as pool wait.",
                    "Several, comma-separated (direct,pooled,pgbouncer,connect), make an experiment: each mode in turn, "
                            + "then a comparison. Default: ${DEFAULT-VALUE}."})
    List<String> pool;

    @Option(names = "--pool-size", paramLabel = "N", defaultValue = "20",
            description = "Server connections when --pool pooled or pgbouncer "
                    + "(default: ${DEFAULT-VALUE}, PgBouncer's default_pool_size).")
    int poolSize;

    @Option(names = "--fresh",
            description = "Embedded database only: discard its cached data directory and start empty.")
    boolean fresh;

    @Option(names = "--cluster", paramLabel = "patroni",
            description = {"Instead of --url or the embedded PostgreSQL, start a real HA cluster on this machine for "
                    + "the run and take it down after (Ctrl-C and failures included): --cluster-nodes PostgreSQL nodes "
                    + "each run by Patroni, three etcd members, HAProxy in front; every host in a network namespace "
                    + "of its own. The same as 'lab up'. Needs root and Debian's packages: apt-get install patroni "
                    + "etcd-server haproxy postgresql iproute2."})
    String cluster;

    @Option(names = "--cluster-nodes", paramLabel = "N", defaultValue = "3",
            description = "PostgreSQL nodes of --cluster (default: ${DEFAULT-VALUE}).")
    int clusterNodes;

    @Option(names = "--cluster-standby", paramLabel = "sync|async", defaultValue = "sync",
            description = "Patroni's synchronous_mode for --cluster (default: ${DEFAULT-VALUE}).")
    String clusterStandby;

    @Option(names = "--cluster-route", paramLabel = "haproxy|multi-host", defaultValue = "haproxy",
            description = {"How the workload reaches --cluster's leader: haproxy (default), HAProxy's primary port, "
                    + "which follows Patroni's /primary health check; multi-host, a URL of every node with "
                    + "targetServerType=primary, the driver finding the primary itself."})
    String clusterRoute;

    /** Where {@link #open} reported; a started PgBouncer is announced there too. */
    private PrintStream console = System.out;

    /** The connection mode of a single run: the one {@code --pool} gave, or the first of several. */
    public PoolMode pool() {
        return pools().get(0);
    }

    /** Every mode {@code --pool} gave, in order; an unknown or repeated one is bad input. */
    public List<PoolMode> pools() {
        return NameList.parse("--pool", pool, PoolMode::parse);
    }

    public int poolSize() {
        return poolSize;
    }

    /** Whether the run starts the embedded PostgreSQL (no --url, no --cluster). */
    public boolean embedded() {
        return url == null && cluster == null;
    }

    /** Whether --cluster starts a lab for the run. */
    public boolean cluster() {
        return cluster != null;
    }

    /**
     * Connects to {@code --url}, or starts the embedded PostgreSQL with a database named {@code databaseName},
     * and says on {@code out} which database is used and how to inspect it. With {@code --pool pgbouncer} it first
     * checks that PgBouncer is installed, before starting anything.
     */
    public Database open(String databaseName, PrintStream out) {
        if (pools().contains(PoolMode.PGBOUNCER)) {
            requirePgBouncer();
        }
        console = out;
        if (poolSize < 1) {
            throw new BadInputException("--pool-size must be at least 1 (got " + poolSize + ")");
        }
        if (cluster != null) {
            return openCluster(databaseName, out);
        }
        if (url != null) {
            if (!url.startsWith("jdbc:")) {
                throw new BadInputException("--url '" + Redaction.url(url)
                        + "' is not a JDBC URL; expected jdbc:postgresql://HOST:PORT/DATABASE");
            }
            Database db = probe(settings(url), null);
            out.println("Database: " + db.version());
            out.println("  url:    " + Redaction.url(url));
            return db;
        }
        out.println("Starting embedded PostgreSQL (no --url given)...");
        LocalPostgres server = LocalPostgres.builder().fresh(fresh).build();
        try {
            server.start();
            server.createDatabaseIfAbsent(databaseName);
            Database db = probe(new ConnectionSettings(server.jdbcUrl(databaseName), server.user(), null), server);
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "gauntlet-embedded-postgres-stop"));
            out.println("Database: embedded " + db.version());
            out.println("  url:    " + server.jdbcUrl(databaseName));
            out.println("  data:   " + server.dataDirectory() + (fresh ? " (fresh)" : " (kept between runs; --fresh discards it)"));
            out.println("  psql:   " + server.psqlCommand(databaseName));
            return db;
        } catch (RuntimeException e) {
            server.close();
            if (e instanceof BadInputException) {
                throw e;
            }
            throw new RunFailedException("could not start the embedded PostgreSQL: " + e.getMessage(), e);
        }
    }

    /**
     * Throws {@link BadInputException} when --cluster was given to a command that works on a database that stays
     * ({@code init}, {@code check}, {@code drop}): a lab lives for one run.
     */
    public void refuseCluster() {
        if (cluster != null) {
            throw new BadInputException("--cluster starts a cluster for one run and takes it down after: load it with "
                    + "run --cluster patroni --init, or start one with 'lab up' and give its URL with --url");
        }
    }

    /** Starts --cluster's lab, makes the database, and returns it owning the lab (closing it takes the lab down). */
    private Database openCluster(String databaseName, PrintStream out) {
        checkCluster();
        return openLab(LabCommand.settings(clusterNodes, clusterStandby, 1_048_576), clusterRoute, databaseName, out)
                .database();
    }

    /** Refuses a --cluster that is not patroni, given with --url, or with a route that is not one. */
    void checkCluster() {
        if (!"patroni".equals(cluster)) {
            throw new BadInputException("--cluster " + cluster + " is not a cluster Gauntlet can start; --cluster patroni is");
        }
        if (url != null) {
            throw new BadInputException("--cluster starts its own cluster: give it or --url, not both");
        }
        if (!"haproxy".equals(clusterRoute) && !"multi-host".equals(clusterRoute)) {
            throw new BadInputException("--cluster-route must be haproxy or multi-host, not '" + clusterRoute + "'");
        }
    }

    /** A lab started for a run: the database on its leader (owning the lab), the lab, and the workload's route. */
    record Lab(Database database, PatroniCluster cluster, String url) {
    }

    /**
     * Starts a lab with {@code settings}, makes the database, and returns it reached by {@code route} ({@code haproxy}
     * or {@code multi-host}), saying on {@code out} what it started; refuses in one line without root or the packages.
     */
    static Lab openLab(PatroniCluster.Settings settings, String route, String databaseName, PrintStream out) {
        LabCommand.requireHost();
        out.println("Starting a Patroni lab (" + settings.nodes() + " nodes, " + (settings.synchronous() ? "sync"
                : "async") + ", through " + route + ")...");
        PatroniCluster lab;
        try {
            lab = PatroniCluster.start(settings, line -> out.println("  " + line));
        } catch (IllegalStateException e) {
            throw new RunFailedException("the Patroni lab did not start: " + e.getMessage(), e);
        }
        try {
            lab.createDatabase(databaseName);
            String url = "haproxy".equals(route) ? lab.haproxyUrl(databaseName) : lab.multiHostUrl(databaseName);
            Database db = probe(lab.settings(url), lab);
            out.println("Database: " + db.version() + ", Patroni lab " + lab.members().stream()
                    .map(m -> m.name() + " " + m.role()).toList());
            out.println("  url:    " + url);
            out.println("  watch:  " + lab.patronictl());
            return new Lab(db, lab, url);
        } catch (RuntimeException e) {
            lab.close();
            throw e;
        }
    }

    /** {@code url} with the user and password given ({@code --user}, {@code --password}) or from the environment. */
    ConnectionSettings settings(String url) {
        return ConnectionSettings.withDefaults(url, user, password);
    }

    /** Work on an admin connection (auto-commit, no statement timeout). */
    @FunctionalInterface
    public interface AdminWork<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Opens the database as {@link #open} does and runs {@code work} on an admin connection: what {@code init},
     * {@code check} and {@code drop} commands do. A SQL failure ends the command with one line,
     * {@code <what> failed: <message>}.
     */
    public <T> T admin(String databaseName, String what, AdminWork<T> work) {
        refuseCluster();
        try (Database db = open(databaseName, System.out); Connection c = db.settings().connectForAdmin()) {
            return work.run(c);
        } catch (SQLException e) {
            throw new RunFailedException(what + " failed: " + dev.gauntlet.sql.SqlStates.message(e), e);
        }
    }

    private static Database probe(ConnectionSettings settings, AutoCloseable embedded) {
        try {
            return Database.probe(settings, embedded);
        } catch (DatabaseUnavailableException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }

    /** Throws {@link BadInputException} unless the pgbouncer binary is installed. */
    public static void requirePgBouncer() {
        try {
            PgBouncer.requireInstalled();
        } catch (IllegalStateException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }

    public JdbcTarget target(Database db) {
        return target(db, pool(), JdbcTarget.DEFAULT_ISOLATION);
    }

    /** @param isolation a {@code Connection.TRANSACTION_*} level every session runs at */
    public JdbcTarget target(Database db, int isolation) {
        return target(db, pool(), isolation);
    }

    /**
     * A target in the given mode ({@code --pool}, or an experiment cell's), with {@code --pool-size}; a PgBouncer
     * is sized for {@value #DEFAULT_CLIENTS} clients.
     */
    public JdbcTarget target(Database db, PoolMode mode, int isolation) {
        return target(db, mode, isolation, DEFAULT_CLIENTS);
    }

    /**
     * A target in the given mode with {@code --pool-size}. For {@link PoolMode#PGBOUNCER} it starts a PgBouncer
     * that admits {@code clients} client connections (and a few more), says so in one line where {@link #open}
     * reported, and stops it when the target closes.
     *
     * @param isolation a {@code Connection.TRANSACTION_*} level every session runs at, or
     *                  {@link JdbcTarget#DEFAULT_ISOLATION}
     * @param clients   the clients of the run
     */
    public JdbcTarget target(Database db, PoolMode mode, int isolation, int clients) {
        long connections = mode == PoolMode.POOLED ? poolSize : clients;
        dev.gauntlet.core.host.OpenFiles.shortOf(connections, mode == PoolMode.POOLED ? "--pool-size " + poolSize
                : "--clients " + clients + " (--pool " + mode.name().toLowerCase(java.util.Locale.ROOT) + ")",
                mode == PoolMode.POOLED ? "" : "or share fewer connections (--pool pooled --pool-size N)")
                .ifPresent(why -> {
                    throw new BadInputException(why);
                });
        if (mode != PoolMode.PGBOUNCER) {
            return JdbcTarget.of(db.sessions(), mode, poolSize, isolation);
        }
        requirePgBouncer();
        JdbcTarget target;
        try {
            target = PgBouncer.target(db.sessions(), poolSize, clients, isolation);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--pool pgbouncer: " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            throw new RunFailedException("could not start PgBouncer: " + e.getMessage(), e);
        }
        PgBouncer bouncer = target.owned(PgBouncer.class).orElseThrow();
        // Ctrl-C ends the JVM without closing the target; PgBouncer is our child and would outlive it.
        Runtime.getRuntime().addShutdownHook(new Thread(bouncer::close, "gauntlet-pgbouncer-stop"));
        console.println("PgBouncer " + bouncer.version() + " in transaction mode on 127.0.0.1:" + bouncer.port()
                + ", pool size " + poolSize);
        return target;
    }
}
