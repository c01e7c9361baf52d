package dev.gauntlet.sql.lab;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.gauntlet.core.host.HostCommand;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.ServerLogs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A real HA PostgreSQL cluster on this machine, as a lab: {@code nodes} PostgreSQL servers each run by its own Patroni,
 * three etcd members as Patroni's consensus store, each host in a network namespace of its own on one bridge
 * ({@link LabNetwork}), and HAProxy in front routing to whichever node Patroni's {@code /primary} health check names.
 * The cluster decides who leads after a node dies or is cut off (Patroni's leader key in etcd, its TTL and loop), not
 * Gauntlet. The driver reaches the leader through HAProxy ({@link #haproxyUrl}) or a multi-host URL with
 * {@code targetServerType=primary} ({@link #multiHostUrl}).
 *
 * <p>{@link #close} takes everything down, processes, namespaces, bridge and data directories, and so does a JVM
 * shutdown (Ctrl-C), after copying the lab's logs and configurations into a directory that stays ({@link #logs}: the
 * run's {@code lab/}, or one under {@link #KEPT_LOGS}); {@code lab down} removes what a killed JVM left behind. The
 * programs it starts get an environment of the lab's choosing ({@code HostCommand}): a user's {@code PGPASSWORD},
 * {@code PGHOST}, {@code ETCDCTL_*} or {@code PATRONI_*} reaches none of them.
 */
public final class PatroniCluster implements AutoCloseable, ServerLogs {

    /** Where labs keep their data directories, logs and configuration: one directory per lab, by its tag. */
    public static final Path ROOT = Path.of("/var/tmp/gauntlet/lab");
    /** Where a lab's logs stay after it is down, unless a run keeps them in its own directory: one per lab. */
    public static final Path KEPT_LOGS = Path.of("/var/tmp/gauntlet/lab-logs");
    /** The superuser the workload connects as; its password is made afresh for each lab. */
    public static final String SUPERUSER = "postgres";
    private static final int ETCD_MEMBERS = 3;
    private static final Duration START_LIMIT = Duration.ofMinutes(3);
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * How the lab is made.
     *
     * @param nodes                PostgreSQL nodes (at least 2)
     * @param synchronous          Patroni's {@code synchronous_mode}: a commit waits for a synchronous standby, and
     *                             only such a standby may be promoted
     * @param maximumLagOnFailover the most WAL (bytes) a replica may be behind and still be promoted
     * @param ttl                  seconds the leader key lives without the leader renewing it
     * @param loopWait             seconds between Patroni's loops
     * @param retryTimeout         seconds Patroni retries etcd and PostgreSQL before it demotes
     */
    public record Settings(int nodes, boolean synchronous, long maximumLagOnFailover, int ttl, int loopWait,
                           int retryTimeout) {

        /** Three nodes, asynchronous, Patroni's default lag (1 MB), faster timings than its defaults. */
        public static Settings defaults() {
            return new Settings(3, false, 1_048_576, 15, 2, 5);
        }

        public Settings {
            if (nodes < 2 || nodes > 9) {
                throw new IllegalArgumentException("a Patroni lab has 2 to 9 nodes, not " + nodes);
            }
            if (ttl < loopWait + 2 * retryTimeout) {
                throw new IllegalArgumentException("Patroni needs ttl >= loop_wait + 2 x retry_timeout (" + ttl
                        + " < " + loopWait + " + 2 x " + retryTimeout + ")");
            }
        }

        public Settings synchronous(boolean sync) {
            return new Settings(nodes, sync, maximumLagOnFailover, ttl, loopWait, retryTimeout);
        }

        public Settings nodes(int n) {
            return new Settings(n, synchronous, maximumLagOnFailover, ttl, loopWait, retryTimeout);
        }

        public Settings maximumLagOnFailover(long bytes) {
            return new Settings(nodes, synchronous, bytes, ttl, loopWait, retryTimeout);
        }
    }

    /** One member as Patroni's {@code /cluster} lists it. */
    public record Member(String name, String role, String state, String host, Integer timeline, Long lagBytes) {

        public boolean leads() {
            return "leader".equals(role);
        }
    }

    private final LabHost.Programs programs;
    private final Settings settings;
    private final String tag;
    private final Path directory;
    private final String password;
    private final List<Process> processes = new ArrayList<>();
    /** What each started process is ({@code etcd e1}, {@code Patroni n2}, {@code HAProxy}) and where it logs. */
    private final Map<Process, Launched> launched = new java.util.HashMap<>();
    private final PatroniRest rest = new PatroniRest();
    private final Map<String, String> nodeAddresses = new LinkedHashMap<>();
    private final Map<String, Process> patronis = new LinkedHashMap<>();
    private final List<String> etcdAddresses = new ArrayList<>();
    private final java.util.function.Consumer<String> progress;
    private Path logs;
    private LabNetwork network;
    private int haproxyPort;
    private int haproxyReplicaPort;
    private Thread shutdownHook;
    private boolean closed;

    private PatroniCluster(LabHost.Programs programs, Settings settings, String tag,
                           java.util.function.Consumer<String> progress) {
        this.programs = programs;
        this.settings = settings;
        this.tag = tag;
        this.directory = ROOT.resolve(tag);
        this.password = HexFormat.of().formatHex(random(12));
        this.progress = progress;
        this.logs = KEPT_LOGS.resolve(tag + "-" + java.time.LocalDateTime.now(java.time.ZoneOffset.UTC)
                .format(java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }

    /**
     * Starts a lab and returns once Patroni has a leader, every node runs, and HAProxy's primary port answers SQL;
     * says what it does on {@code progress}, and there where its logs are once it is down. Refuses (one line, nothing
     * started) without root or the packages; a lab that does not come up is taken down, its logs kept, and the line
     * thrown says where, and why when a node's log says it.
     */
    public static PatroniCluster start(Settings settings, java.util.function.Consumer<String> progress) {
        LabHost.Programs programs = LabHost.require();
        String tag = HexFormat.of().formatHex(random(2));
        PatroniCluster cluster = new PatroniCluster(programs, settings, tag, progress);
        cluster.shutdownHook = new Thread(cluster::close, "gauntlet-lab-down");
        Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
        try {
            cluster.bringUp(progress);
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void bringUp(java.util.function.Consumer<String> progress) {
        long t0 = System.nanoTime();
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the lab's directory " + directory + ": " + e, e);
        }
        network = LabNetwork.create(programs, tag);
        progress.accept("network " + network.cidr() + " (namespaces " + network.namespace("n1") + "...)");
        List<String> etcdHosts = etcdAddresses;
        StringBuilder initial = new StringBuilder();
        for (int e = 1; e <= ETCD_MEMBERS; e++) {
            String address = network.addHost("e" + e, 20 + e);
            etcdHosts.add(address);
            initial.append(e == 1 ? "" : ",").append("e").append(e).append("=http://").append(address).append(":2380");
        }
        for (int e = 1; e <= ETCD_MEMBERS; e++) {
            startEtcd("e" + e, etcdHosts.get(e - 1), initial.toString());
        }
        for (int n = 1; n <= settings.nodes(); n++) {
            nodeAddresses.put("n" + n, network.addHost("n" + n, 10 + n));
        }
        progress.accept(ETCD_MEMBERS + " etcd members started; starting " + settings.nodes() + " Patroni nodes");
        for (String node : nodeAddresses.keySet()) {
            startPatroni(node, etcdHosts);
        }
        startHaproxy();
        awaitReady();
        progress.accept(String.format(Locale.ROOT, "cluster up in %.1f s: leader %s", (System.nanoTime() - t0) / 1e9,
                leader().map(Member::name).orElse("?")));
    }

    private void startEtcd(String name, String address, String initialCluster) {
        Path data = directory.resolve(name);
        List<String> command = new ArrayList<>(network.in(name));
        command.addAll(List.of(programs.etcd().toString(), "--name", name, "--data-dir", data.toString(),
                "--listen-peer-urls", "http://" + address + ":2380",
                "--initial-advertise-peer-urls", "http://" + address + ":2380",
                "--listen-client-urls", "http://" + address + ":2379,http://127.0.0.1:2379",
                "--advertise-client-urls", "http://" + address + ":2379",
                "--initial-cluster", initialCluster, "--initial-cluster-token", "gauntlet-" + tag,
                "--initial-cluster-state", "new", "--heartbeat-interval", "100", "--election-timeout", "1000",
                "--logger", "zap", "--log-level", "warn"));
        processes.add(launch("etcd " + name, command, directory.resolve(name + ".log")));
    }

    private void startPatroni(String node, List<String> etcdHosts) {
        Path home = directory.resolve(node);
        String address = nodeAddresses.get(node);
        Map<String, Object> config = PatroniConfig.node(settings, "gauntlet-" + tag, node, address, home, etcdHosts,
                programs.postgresBin(), network.cidr(), password);
        Path file = home.resolve("patroni.yml");
        try {
            Files.createDirectories(home.resolve("log"));
            new YAMLMapper().writeValue(file.toFile(), config);
            LabHost.run("chown", "-R", "postgres:postgres", home.toString());
            LabHost.run("chmod", "700", home.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        List<String> command = new ArrayList<>(network.in(node));
        command.addAll(List.of(programs.runuser().toString(), "-u", "postgres", "--", programs.patroni().toString(),
                file.toString()));
        Process p = launch("Patroni " + node, command, directory.resolve(node + ".log"));
        processes.add(p);
        patronis.put(node, p);
    }

    private void startHaproxy() {
        haproxyPort = dev.gauntlet.core.host.LoopbackPorts.free();
        haproxyReplicaPort = dev.gauntlet.core.host.LoopbackPorts.free();
        StringBuilder cfg = new StringBuilder("""
                global
                  maxconn 2000
                defaults
                  mode tcp
                  timeout connect 4s
                  timeout client 30m
                  timeout server 30m
                  timeout check 2s
                """);
        for (String[] listen : new String[][] {{"primary", String.valueOf(haproxyPort)},
                {"replica", String.valueOf(haproxyReplicaPort)}}) {
            cfg.append("listen ").append(listen[0]).append('\n')
                    .append("  bind 127.0.0.1:").append(listen[1]).append('\n')
                    // OPTIONS, not GET: a GET resets Patroni's connections and fills its log with tracebacks.
                    .append("  option httpchk OPTIONS /").append(listen[0]).append('\n')
                    .append("  http-check expect status 200\n")
                    .append("  default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions\n");
            nodeAddresses.forEach((node, address) -> cfg.append("  server ").append(node).append(' ').append(address)
                    .append(":5432 check port 8008\n"));
        }
        Path file = directory.resolve("haproxy.cfg");
        try {
            Files.writeString(file, cfg);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        processes.add(launch("HAProxy", List.of(programs.haproxy().toString(), "-db", "-f", file.toString()),
                directory.resolve("haproxy.log")));
    }

    /** A process the lab started: what it is, and its log. */
    private record Launched(String name, Path log) {
    }

    private Process launch(String name, List<String> command, Path log) {
        try {
            Process p = HostCommand.of(command).env("LC_ALL", "C.UTF-8")
                    .start(ProcessBuilder.Redirect.appendTo(log.toFile()), null);
            launched.put(p, new Launched(name, log));
            return p;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + name + ": " + e, e);
        }
    }

    /** Waits for a leader, every node running, and SQL through HAProxy's primary port. */
    private void awaitReady() {
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        String last = "no answer from Patroni yet";
        while (System.nanoTime() < deadline) {
            for (Process p : processes) {
                if (!p.isAlive()) {
                    Launched what = launched.get(p);
                    throw new IllegalStateException(what.name() + " exited (exit " + p.exitValue()
                            + ") while the cluster started" + LabLogs.lastLine(what.log()).map(l -> ": " + l)
                            .orElse("") + "; logs in " + logs);
                }
            }
            try {
                List<Member> members = members();
                boolean led = members.stream().anyMatch(Member::leads);
                long running = members.stream().filter(m -> "running".equals(m.state())
                        || "streaming".equals(m.state())).count();
                boolean synced = !settings.synchronous()
                        || members.stream().anyMatch(m -> "sync_standby".equals(m.role()));
                last = members.toString();
                if (led && synced && running == settings.nodes()) {
                    try (Connection c = connect(haproxyUrl("postgres")); Statement s = c.createStatement()) {
                        s.execute("SELECT 1");
                        return;
                    } catch (SQLException e) {
                        last = "HAProxy's primary port: " + e.getMessage();
                    }
                }
            } catch (IllegalStateException e) {
                last = e.getMessage();
            }
            sleep(500);
        }
        throw new IllegalStateException("the Patroni lab did not come up in " + START_LIMIT.toMinutes()
                + " min (" + last + ")" + whyNotUp() + "; logs in " + logs);
    }

    /**
     * What the logs of the members not up say last that failed ({@code n2 creating replica: FATAL: password
     * authentication failed for user "replicator"}), after a semicolon; empty when none is known or none says.
     */
    private String whyNotUp() {
        List<String> why = new ArrayList<>();
        List<Member> members;
        try {
            members = members();
        } catch (IllegalStateException e) {
            members = nodeAddresses.keySet().stream().map(n -> new Member(n, "?", "not answering", null, null, null))
                    .toList();
        }
        for (Member m : members) {
            if (!"running".equals(m.state()) && !"streaming".equals(m.state())) {
                LabLogs.lastError(directory, m.name()).ifPresent(line -> why.add(m.name() + " " + m.state() + ": "
                        + line));
            }
        }
        return why.isEmpty() ? "" : "; " + String.join("; ", why);
    }

    /** The members as a node's Patroni sees them ({@code GET /cluster}), from the first node that answers. */
    public List<Member> members() {
        return rest.members(nodeAddresses.values());
    }

    /** The member that leads now, as Patroni says. */
    public Optional<Member> leader() {
        return members().stream().filter(Member::leads).findFirst();
    }

    /** {@code jdbc:postgresql://127.0.0.1:PORT/DB}: HAProxy's primary port, which follows the leader. */
    public String haproxyUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + haproxyPort + "/" + database;
    }

    /** HAProxy's port that routes to the replicas. */
    public String haproxyReplicaUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + haproxyReplicaPort + "/" + database;
    }

    /** Every node in one URL, the driver picking the primary ({@code targetServerType=primary}). */
    public String multiHostUrl(String database) {
        return "jdbc:postgresql://" + String.join(",", nodeAddresses.values().stream().map(a -> a + ":5432").toList())
                + "/" + database + "?targetServerType=primary&hostRecheckSeconds=2";
    }

    /** The superuser's name and this lab's password, for {@code url}. */
    public ConnectionSettings settings(String url) {
        return new ConnectionSettings(url, SUPERUSER, password);
    }

    public String password() {
        return password;
    }

    /** Creates {@code database} on the leader unless it exists. */
    public void createDatabase(String database) {
        try (Connection c = connect(haproxyUrl("postgres")); Statement s = c.createStatement()) {
            try (var rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database.replace("'", "''")
                    + "'")) {
                if (rs.next()) {
                    return;
                }
            }
            s.execute("CREATE DATABASE \"" + database.replace("\"", "\"\"") + "\"");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + database + " in the lab: " + e.getMessage(), e);
        }
    }

    private Connection connect(String url) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SUPERUSER);
        p.setProperty("password", password);
        p.setProperty("connectTimeout", "3");
        p.setProperty("socketTimeout", "10");
        return DriverManager.getConnection(url, p);
    }

    /**
     * The line that lists the cluster by hand: {@code patronictl -c .../n1/patroni.yml list}, under {@code env -i} so
     * the user's {@code PATRONI_*} and {@code PG*} variables (which patronictl reads) do not turn it elsewhere.
     */
    public String patronictl() {
        return String.join(" ", network.in("n1")) + " env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "
                + programs.patronictl() + " -c " + directory.resolve("n1").resolve("patroni.yml") + " list";
    }

    /** The lab's nodes by name ({@code n1}...), with their addresses. */
    public Map<String, String> nodes() {
        return Map.copyOf(nodeAddresses);
    }

    public Settings clusterSettings() {
        return settings;
    }

    /** The lab's directory: data directories, configurations, logs. It goes with the lab. */
    public Path directory() {
        return directory;
    }

    /**
     * Where the lab's logs and configurations are copied when it goes down (passwords left out), to stay: a run's
     * {@code lab/}, or by default {@code /var/tmp/gauntlet/lab-logs/TAG-TIME}.
     */
    public Path logs() {
        return logs;
    }

    /** Keeps the lab's logs in {@code dir} when it goes down, instead of where {@link #logs} said. */
    @Override
    public synchronized String keepLogsIn(Path dir) {
        this.logs = dir;
        return "the Patroni lab's logs (each node's Patroni and PostgreSQL logs, etcd's, HAProxy's, the nodes' "
                + "patroni.yml without passwords) are in `" + dir + "`, copied when the lab went down after the run";
    }

    /** The network the lab's hosts are on (a node is cut off through it). */
    LabNetwork network() {
        return network;
    }

    /** What can be done to this lab's nodes and consensus store: the faults of a cluster. */
    public NodeFaults faults() {
        return new NodeFaults(this);
    }

    /** The etcd members by name ({@code e1}...), with their addresses. */
    Map<String, String> etcdMembers() {
        Map<String, String> m = new LinkedHashMap<>();
        for (int e = 0; e < etcdAddresses.size(); e++) {
            m.put("e" + (e + 1), etcdAddresses.get(e));
        }
        return m;
    }

    /** The node's Patroni (the {@code runuser} that runs it) and every process under it, killed at once (SIGKILL). */
    synchronized void killPatroni(String node) {
        Process p = patronis.get(node);
        if (p == null) {
            throw new IllegalArgumentException("no node " + node + " in this lab");
        }
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts the node's Patroni again (after {@link #killPatroni}), on the data directory it left. */
    synchronized void startPatroni(String node) {
        if (closed) {
            throw new IllegalStateException("the lab is down");
        }
        startPatroni(node, etcdAddresses);
    }

    /** A request to the node's Patroni REST API: the status and body of its answer. */
    HttpResponse<String> patroniApi(String node, String method, String path, String json) {
        String address = nodeAddresses.get(node);
        if (address == null) {
            throw new IllegalArgumentException("no node " + node + " in this lab");
        }
        return rest.call(address, method, path, json);
    }

    /** A superuser session straight to one node's PostgreSQL (not through HAProxy). */
    Connection connectNode(String node) throws SQLException {
        return connect("jdbc:postgresql://" + nodeAddresses.get(node) + ":5432/postgres");
    }

    /** Stops every process, removes the namespaces, the bridge and the directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // the JVM is going down: the hook is running or will
            }
        }
        // Patroni first (it would restart PostgreSQL), then the rest; the whole tree of each.
        List<Process> order = new ArrayList<>(patronis.values());
        processes.stream().filter(p -> !order.contains(p)).forEach(order::add);
        for (Process p : order) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : order) {
            try {
                p.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        LabLeftovers.killProcesses(directory);
        keepLogs();
        if (network != null) {
            network.destroy();
        }
        LabLeftovers.deleteTree(directory);
    }

    /** Copies the logs out before the directory goes, and says where on the lab's progress. */
    private void keepLogs() {
        try {
            int files = LabLogs.copy(directory, logs).size();
            progress.accept("lab down; its logs (" + files + " files: Patroni, PostgreSQL, etcd, HAProxy, patroni.yml "
                    + "without passwords) kept in " + logs);
        } catch (IOException | RuntimeException e) {
            progress.accept("lab down; its logs could not be kept in " + logs + " (" + e.getMessage() + ")");
        }
    }

    /**
     * Removes what labs killed before they could tear down left on this machine: their processes, namespaces,
     * links and directories. Returns what it removed, a line each.
     */
    public static List<String> removeLeftovers() {
        return LabLeftovers.remove(LabHost.require());
    }

    private static byte[] random(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return b;
    }

    /** Throws one line naming what the machine lacks for a lab (root, namespaces, the packages), or returns. */
    public static void requireHost() {
        LabHost.require();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the lab started", e);
        }
    }

    @Override
    public String toString() {
        return "PatroniCluster[" + tag + ", " + settings.nodes() + " nodes, "
                + (settings.synchronous() ? "synchronous" : "asynchronous") + (closed ? ", closed" : "") + "]";
    }
}
