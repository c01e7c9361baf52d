package dev.gauntlet.sql.adversity;

import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.lab.PatroniCluster;
import dev.gauntlet.sql.server.ReplicatedPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What disruptions act on, by the means a run has: SQL on the current primary always; the servers' processes and
 * files when Gauntlet runs them ({@link ReplicatedPostgres}); the network path when Toxiproxy stands between the
 * workload and the servers ({@link ServerProxies}); a cluster's nodes and consensus store when Gauntlet runs the
 * cluster ({@link PatroniCluster}: {@code given} is then the workload's way to its leader).
 */
public final class SystemUnderTest {

    /** What a target given by --url takes, for the reason it cannot take the rest. */
    private static final String URL_TAKES = "; with --url only SQL-level disruptions, network faults and commands run";

    private final ConnectionSettings given;
    private final String database;
    private final ReplicatedPostgres local;
    private final ServerProxies proxies;
    private final PatroniCluster cluster;

    /**
     * @param given    the database as the user gave it (--url), or null for the embedded topology
     * @param database the database name on the embedded servers
     * @param local    the embedded servers, or null
     * @param proxies  Toxiproxy's proxies between the workload and the servers, or null
     */
    public SystemUnderTest(ConnectionSettings given, String database, ReplicatedPostgres local, ServerProxies proxies) {
        this(given, database, local, proxies, null);
    }

    /** @param cluster the cluster Gauntlet started for the run ({@code given}: the workload's route to it), or null */
    public SystemUnderTest(ConnectionSettings given, String database, ReplicatedPostgres local, ServerProxies proxies,
                           PatroniCluster cluster) {
        if (given == null && local == null) {
            throw new IllegalArgumentException("a system under test needs a URL or the embedded servers");
        }
        if (cluster != null && given == null) {
            throw new IllegalArgumentException("a cluster needs the route to its leader");
        }
        this.given = given;
        this.database = database;
        this.local = local;
        this.proxies = proxies;
        this.cluster = cluster;
    }

    /** The cluster Gauntlet runs for this run, when it does. */
    public Optional<PatroniCluster> cluster() {
        return Optional.ofNullable(cluster);
    }

    /**
     * One write through the workload's own route (a transaction that takes a transaction id and commits), with short
     * timeouts: the address of the server that accepted it, or empty when it was refused or did not answer in time.
     */
    public Optional<String> tryWrite() {
        java.util.Properties p = new java.util.Properties();
        if (given.user() != null) {
            p.setProperty("user", given.user());
        }
        if (given.password() != null) {
            p.setProperty("password", given.password());
        }
        p.setProperty("connectTimeout", "1");
        p.setProperty("socketTimeout", "2");
        p.setProperty("loginTimeout", "2");
        try (Connection c = java.sql.DriverManager.getConnection(given.url(), p);
             java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT host(inet_server_addr()), txid_current()")) {
            rs.next();
            return Optional.of(String.valueOf(rs.getString(1)));
        } catch (SQLException e) {
            return Optional.empty();
        }
    }

    /** A superuser session on the current primary, straight to it (never through the proxy). */
    public Connection admin() throws SQLException {
        if (local != null) {
            Connection c = local.primary().connect(database);
            c.setAutoCommit(true);
            return c;
        }
        return given.connectForAdmin();
    }

    /** The current primary as connection settings (for a replication connection, say). */
    public ConnectionSettings adminSettings() {
        if (local != null) {
            return new ConnectionSettings(local.primary().jdbcUrl(database), local.primary().user(), null);
        }
        return given;
    }

    /** The target's servers as the workload reaches them (straight, not through a proxy): the given URL's, or the embedded ones, primary first. */
    public TargetHosts hosts() {
        if (local != null) {
            return TargetHosts.local(local.ports(), database);
        }
        return TargetHosts.ofUrl(given.url()).orElse(null);
    }

    public Optional<ReplicatedPostgres> local() {
        return Optional.ofNullable(local);
    }

    /** The proxies in front of the servers, when the plan has network faults. */
    public Optional<ServerProxies> proxies() {
        return Optional.ofNullable(proxies);
    }

    /** Whether this system can take disruptions that need {@code need}; the reason when it cannot. */
    public Optional<String> cannotTake(DisruptionKind.Need need) {
        return switch (need) {
            case SQL -> Optional.empty();
            case SERVER_PROCESSES, SERVER_FILES -> local != null || cluster != null ? Optional.empty()
                    : Optional.of("they need " + need.description() + URL_TAKES);
            case STANDBY -> local != null && local.standby().isPresent() ? Optional.empty()
                    : Optional.of("they need " + need.description()
                    + (local == null ? URL_TAKES : "; the plan says standby: none"));
            case TOXIPROXY -> proxies != null ? Optional.empty()
                    : Optional.of("they need " + need.description() + ", which is not running");
            case DRIVER_SHELL -> Optional.empty();
            case CLUSTER -> cluster != null ? Optional.empty() : Optional.of("they need " + need.description());
        };
    }
}
