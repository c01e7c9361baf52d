package dev.gauntlet.sql.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Two embedded PostgreSQL servers on this machine, a primary and (when asked) a streaming-replication standby, for
 * runs through faults: the driver connects with a multi-host URL and {@code targetServerType=primary}, so a failover
 * is survived as in production. The standby is made from a fresh {@link BaseBackup} at every start and streams from
 * a physical slot; with {@code synchronous} every commit waits for the standby to have flushed it, so a failover
 * loses nothing.
 *
 * <p>The two data directories ({@code node-a}, {@code node-b} under {@code replicated/} in the cache) are kept between
 * runs; a file {@code primary} there says which one is the primary, and a failover changes it. Failover is done by
 * this class's callers in steps a zone outage needs: {@link #stopPrimary()}, {@link #promote()}, and
 * {@link #rebuildStandby()} when the old primary returns. While the promoted primary has no standby, synchronous
 * replication is suspended on it (as Patroni's synchronous mode does), else it could not commit at all.
 *
 * <p>Made by naming where the data directories live and what to run, e.g.
 * {@code ReplicatedPostgres.inCache().synchronousStandby().fresh(true).build().start(progress)}.
 *
 * <p>All methods are synchronized; a failover runs on a disruption's thread while probes ask for the primary.
 */
public final class ReplicatedPostgres implements AutoCloseable {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ReplicatedPostgres.class);

    /** The standby's application_name and slot name on the primary. */
    static final String STANDBY_NAME = "gauntlet_standby";
    private static final Duration STREAMING_WAIT = Duration.ofSeconds(120);
    private static final String MARKER = "primary";

    private final Path home;
    private final LoopFileSystem fileSystem;
    private final boolean withStandby;
    private final boolean synchronous;
    private final boolean fresh;
    private final Map<String, String> settings;
    private Node primary;
    private Node standby;
    /** A node whose server is down (the old primary during an outage), to be rebuilt as the standby. */
    private Node down;

    /** A data directory, its server, and the port that server was started on (kept for its rebuild). */
    private record Node(String name, Path dataDirectory, LocalPostgres server, int port) {

        static Node started(Path dir, LocalPostgres server) {
            server.start();
            return new Node(dir.getFileName().toString(), dir, server, server.port());
        }
    }

    /**
     * @param home       where the two data directories live (null: {@code replicated/} in the default cache)
     * @param fileSystem the file system they live on alone (its mount point holds {@code home}), or null
     */
    private ReplicatedPostgres(Path home, LoopFileSystem fileSystem, Builder b) {
        this.fileSystem = fileSystem;
        this.home = (home != null ? home : LocalPostgres.defaultCacheDirectory().resolve("replicated"))
                .toAbsolutePath().normalize();
        this.withStandby = b.withStandby;
        this.synchronous = b.synchronous;
        this.fresh = b.fresh;
        this.settings = Map.copyOf(b.settings);
    }

    /** Servers whose two data directories live in {@code home}. */
    public static Builder in(Path home) {
        return new Builder(Objects.requireNonNull(home, "home"), null, false);
    }

    /**
     * Servers on {@code fileSystem}, in {@code replicated/} at its mount point, so a disk stall can freeze their
     * writes alone.
     */
    public static Builder on(LoopFileSystem fileSystem) {
        return new Builder(fileSystem.mountPoint().resolve("replicated"), fileSystem, false);
    }

    /**
     * The servers in the default cache: on a loop-mounted file system of their own ({@code replicated.img} mounted
     * at {@code replicated-fs}) where this machine allows one ({@link LoopFileSystem#unavailable()}), so a disk stall
     * can freeze their writes alone; else in {@code replicated/}. The file system is mounted by
     * {@link Builder#build()}.
     */
    public static Builder inCache() {
        return new Builder(null, null, true);
    }

    /**
     * What to run, and where: a primary alone, on data directories kept from earlier runs, with no server settings
     * beyond the replication ones, unless told otherwise.
     */
    public static final class Builder {

        private final Path home;
        private final LoopFileSystem fileSystem;
        private final boolean inCache;
        private boolean withStandby;
        private boolean synchronous;
        private boolean fresh;
        private Map<String, String> settings = Map.of();

        private Builder(Path home, LoopFileSystem fileSystem, boolean inCache) {
            this.home = home;
            this.fileSystem = fileSystem;
            this.inCache = inCache;
        }

        /** A standby that every commit waits for (it has flushed the commit), so a failover loses nothing. */
        public Builder synchronousStandby() {
            withStandby = true;
            synchronous = true;
            return this;
        }

        /** A standby that streams behind the primary; commits do not wait for it. */
        public Builder asynchronousStandby() {
            withStandby = true;
            synchronous = false;
            return this;
        }

        /** When {@code fresh}, both data directories are discarded first. */
        public Builder fresh(boolean fresh) {
            this.fresh = fresh;
            return this;
        }

        /** Server settings for both servers, beside the replication ones. */
        public Builder settings(Map<String, String> settings) {
            this.settings = settings;
            return this;
        }

        /** The servers, not yet started ({@link ReplicatedPostgres#start}). */
        public ReplicatedPostgres build() {
            if (!inCache) {
                return new ReplicatedPostgres(home, fileSystem, this);
            }
            Path cache = LocalPostgres.defaultCacheDirectory();
            if (LoopFileSystem.unavailable().isEmpty()) {
                try {
                    Files.createDirectories(cache);
                    LoopFileSystem fs = LoopFileSystem.mount(cache.resolve("replicated.img"),
                            cache.resolve("replicated-fs"));
                    return new ReplicatedPostgres(fs.mountPoint().resolve("replicated"), fs, this);
                } catch (IOException e) {
                    log.debug("no loop-mounted file system for the servers ({}); using {}", e.getMessage(), cache);
                }
            }
            return new ReplicatedPostgres(null, null, this);
        }
    }

    /** The file system the data directories live on alone, when they have one (see {@link #inCache}). */
    public Optional<LoopFileSystem> fileSystem() {
        return Optional.ofNullable(fileSystem);
    }

    /** Starts the primary and, when asked, builds and starts the standby and waits until it streams. */
    public synchronized ReplicatedPostgres start(Consumer<String> progress) {
        try {
            Files.createDirectories(home);
            ServerAccount.createOpenDirectories(home);
            String primaryName = readMarker();
            Path primaryDir = home.resolve(primaryName);
            Path standbyDir = home.resolve(other(primaryName));
            if (Files.exists(primaryDir.resolve("standby.signal"))) {
                // Left by a run that ended between promotion and rebuild: this node was never promoted.
                Files.delete(primaryDir.resolve("standby.signal"));
            }
            primary = Node.started(primaryDir, server(primaryDir, 0, null, fresh));
            discard(standbyDir);
            if (withStandby) {
                progress.accept("building the " + (synchronous ? "synchronous" : "asynchronous")
                        + " standby from a base backup of the primary...");
                standby = buildStandby(standbyDir, 0);
            } else {
                dropSlot(primary);
                setSynchronous(primary, false);
            }
            return this;
        } catch (IOException | SQLException e) {
            close();
            throw new LocalPostgresException("could not start the replicated PostgreSQL in " + home + ": " + e, e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The current primary (it changes on {@link #promote()}). */
    public synchronized LocalPostgres primary() {
        return primary.server();
    }

    public synchronized Optional<LocalPostgres> standby() {
        return Optional.ofNullable(standby).map(Node::server);
    }

    public boolean synchronous() {
        return synchronous;
    }

    /** Both servers' ports, primary first: what a multi-host URL lists. */
    public synchronized List<Integer> ports() {
        List<Integer> ports = new ArrayList<>(List.of(primary.server().port()));
        if (standby != null) {
            ports.add(standby.server().port());
        }
        return ports;
    }

    /**
     * A URL over {@code ports} (these servers', or proxies in front of them, primary first) that always reaches the
     * primary. pgjdbc remembers which host was the primary for {@code hostRecheckSeconds} (10 s by default); 2 s
     * here, so a promoted standby is found within 2 s of a client's next connection attempt.
     */
    public static String jdbcUrl(List<Integer> ports, String database) {
        StringBuilder hosts = new StringBuilder();
        for (int p : ports) {
            hosts.append(hosts.length() == 0 ? "" : ",").append("localhost:").append(p);
        }
        return "jdbc:postgresql://" + hosts + "/" + database
                + (ports.size() > 1 ? "?targetServerType=primary&hostRecheckSeconds=2" : "");
    }

    /** Stops the primary as a lost zone would (immediate shutdown); its node waits for {@link #rebuildStandby()}. */
    public synchronized void stopPrimary() {
        primary.server().stopImmediately();
        down = primary;
    }

    /**
     * Promotes the standby to primary and records it as the primary; with synchronous replication suspends it
     * until a standby is back. Returns how long promotion took.
     */
    public synchronized Duration promote() throws SQLException {
        if (standby == null) {
            throw new IllegalStateException("there is no standby to promote");
        }
        long t0 = System.nanoTime();
        try (Connection c = standby.server().connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_promote(true, 60)")) {
            rs.next();
            if (!rs.getBoolean(1)) {
                throw new SQLException("pg_promote did not finish within 60 s");
            }
        }
        Node promoted = standby;
        standby = null;
        if (down == null) {
            down = primary;
        }
        primary = promoted;
        writeMarker(primary.name());
        if (synchronous) {
            setSynchronous(primary, false);
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /**
     * Rebuilds the node that went down as a standby of the current primary (a fresh base backup: the embedded
     * binaries have no pg_rewind), on its old port, and waits until it streams; then restores synchronous
     * replication. Returns what the base backup copied.
     */
    public synchronized BaseBackup.Outcome rebuildStandby() throws SQLException, IOException {
        if (down == null) {
            throw new IllegalStateException("no server is down to rebuild");
        }
        discard(down.dataDirectory());
        Node rebuilt = buildStandby(down.dataDirectory(), down.port());
        standby = rebuilt;
        down = null;
        return lastBackup;
    }

    private BaseBackup.Outcome lastBackup;

    private Node buildStandby(Path dir, int port) throws SQLException, IOException {
        LocalPostgres source = primary.server();
        try (Connection admin = source.connect("postgres")) {
            try (Statement s = admin.createStatement()) {
                s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '"
                        + STANDBY_NAME + "' AND NOT active");
                s.execute("SELECT pg_create_physical_replication_slot('" + STANDBY_NAME + "', true) "
                        + "WHERE NOT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + STANDBY_NAME + "')");
            }
            lastBackup = BaseBackup.take(admin, source.dataDirectory(), dir, "gauntlet standby");
        }
        Files.writeString(dir.resolve("standby.signal"), "");
        ServerAccount.forThisProcess().own(dir);
        Node node = Node.started(dir, server(dir, port, source.port(), false));
        awaitStreaming(node);
        if (synchronous) {
            setSynchronous(primary, true);
        }
        return node;
    }

    private void awaitStreaming(Node node) throws SQLException {
        long deadline = System.nanoTime() + STREAMING_WAIT.toNanos();
        try (Connection c = primary.server().connect("postgres");
             PreparedStatement q = c.prepareStatement(
                     "SELECT state FROM pg_stat_replication WHERE application_name = ?")) {
            q.setString(1, STANDBY_NAME);
            while (true) {
                try (ResultSet rs = q.executeQuery()) {
                    if (rs.next() && "streaming".equals(rs.getString(1))) {
                        return;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new LocalPostgresException("the standby in " + node.dataDirectory() + " did not stream from "
                            + "the primary within " + STREAMING_WAIT.toSeconds() + " s; see " + node.server().logFile());
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LocalPostgresException("interrupted while waiting for the standby", e);
                }
            }
        }
    }

    private LocalPostgres server(Path dir, int port, Integer primaryPort, boolean discard) {
        LocalPostgres.Builder b = LocalPostgres.builder().dataDirectory(dir).fresh(discard).port(port);
        settings.forEach(b::setting);
        b.setting("wal_level", "logical");
        b.setting("max_wal_senders", "10");
        b.setting("max_replication_slots", "10");
        b.setting("hot_standby", "on");
        b.setting("wal_log_hints", "on");
        b.setting("synchronous_standby_names", synchronous ? STANDBY_NAME : "");
        if (primaryPort != null) {
            b.setting("primary_conninfo", "host=localhost port=" + primaryPort + " user=postgres application_name="
                    + STANDBY_NAME);
            b.setting("primary_slot_name", STANDBY_NAME);
        }
        return b.build();
    }

    /** Synchronous replication on or off on a running primary (ALTER SYSTEM, which outranks the settings file). */
    private static void setSynchronous(Node node, boolean on) throws SQLException {
        try (Connection c = node.server().connect("postgres"); Statement s = c.createStatement()) {
            s.execute(on ? "ALTER SYSTEM RESET synchronous_standby_names"
                    : "ALTER SYSTEM SET synchronous_standby_names = ''");
            s.execute("SELECT pg_reload_conf()");
        }
    }

    private static void dropSlot(Node node) throws SQLException {
        try (Connection c = node.server().connect("postgres"); Statement s = c.createStatement()) {
            s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '"
                    + STANDBY_NAME + "' AND NOT active");
        }
    }

    private void discard(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        if (!PostmasterPid.processesIn(dir).isEmpty()) {
            throw new LocalPostgresException("a PostgreSQL server still runs in " + dir + "; stop it first");
        }
        if (!Files.exists(dir.resolve("PG_VERSION")) && !isEmpty(dir)) {
            throw new LocalPostgresException("refusing to discard " + dir + ": not a PostgreSQL data directory");
        }
        PostgresBinaries.deleteTree(dir);
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    private String readMarker() throws IOException {
        Path marker = home.resolve(MARKER);
        String name = Files.exists(marker) ? Files.readString(marker).strip() : "node-a";
        if (!name.equals("node-a") && !name.equals("node-b")) {
            name = "node-a";
        }
        writeMarker(name);
        return name;
    }

    private void writeMarker(String name) {
        try {
            Files.writeString(home.resolve(MARKER), name + "\n");
        } catch (IOException e) {
            throw new LocalPostgresException("cannot write " + home.resolve(MARKER) + ": " + e, e);
        }
    }

    private static String other(String name) {
        return name.equals("node-a") ? "node-b" : "node-a";
    }

    /** Stops both servers (the standby first); safe to call twice. */
    @Override
    public synchronized void close() {
        RuntimeException failure = null;
        for (Node n : new Node[] {standby, primary, down}) {
            if (n == null) {
                continue;
            }
            try {
                n.server().close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
