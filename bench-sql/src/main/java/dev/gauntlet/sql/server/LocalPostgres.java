package dev.gauntlet.sql.server;

import dev.gauntlet.core.host.LoopbackPorts;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server on this machine, run from the binaries zonky publishes on Maven Central: what a run or a
 * test uses when it was given no {@code --url}.
 *
 * <p>zonky's own {@code EmbeddedPostgres} is not used because initdb and postgres refuse to run as root, and
 * this project's machines and CI run as root; here a root JVM runs the server as {@code nobody} instead (see
 * {@link ServerAccount}). The binaries are unpacked once into a cache ({@link #defaultCacheDirectory()}) and the
 * data directory persists between runs unless {@link Builder#fresh(boolean)} asks for a new one.
 *
 * <p>If a server is already running on the data directory (another Gauntlet process, say), {@link #start()}
 * attaches to it instead of failing, and {@link #stop()} then leaves it running.
 *
 * <p>The server runs in its own session and outlives the JVM: nothing stops it except {@link #stop()} or
 * {@link #close()}, which the caller must call (a shutdown hook is the caller's decision). {@code stop()} is
 * idempotent. Every wait is bounded (pg_ctl's 60 s), and every failure is a {@link LocalPostgresException}
 * whose one-line message names the step and quotes the tail of the server log. All methods are thread-safe.
 *
 * <pre>{@code
 * try (LocalPostgres pg = LocalPostgres.builder().setting("synchronous_commit", "off").build().start()) {
 *     pg.createDatabaseIfAbsent("tpcc");
 *     String url = pg.jdbcUrl("tpcc");
 * }
 * }</pre>
 */
public final class LocalPostgres implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocalPostgres.class);
    private static final String SUPERUSER = "postgres";
    private static final String LOG_FILE = "server.log";
    /** pg_ctl's own bound on start, stop and restart. */
    private static final Duration SERVER_WAIT = Duration.ofSeconds(60);
    /** Our bound on any tool, a little above pg_ctl's so its own message wins when it times out. */
    private static final Duration TOOL_LIMIT = SERVER_WAIT.plusSeconds(30);
    private static final Duration STARTUP_LOCK_PATIENCE = Duration.ofSeconds(150);
    private static final int PORT_ATTEMPTS = 3;
    private static final Pattern SETTING_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*");

    private enum State { NEW, RUNNING, ATTACHED, STOPPED }

    private final Path cacheDirectory;
    private final Path configuredDataDirectory;
    private final int preferredPort;
    private final Map<String, String> settings;
    private boolean freshPending;

    private ServerAccount account;
    private PostgresBinaries binaries;
    private Path dataDirectory;
    private State state = State.NEW;
    private int port;
    private long attachedPid;
    /** The postmaster this instance started, so stop() never stops a server someone else started since. */
    private long serverPid;
    private String version;
    private ServerLog serverLog;
    private PostgresTool tools;

    private LocalPostgres(Builder builder) {
        this.cacheDirectory = builder.cacheDirectory;
        this.configuredDataDirectory = builder.dataDirectory;
        this.preferredPort = builder.port;
        this.settings = Collections.unmodifiableMap(new LinkedHashMap<>(builder.settings));
        this.freshPending = builder.fresh;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The settings every local server starts with, before the caller's: sized for a benchmark on a small box,
     * with durability left on (fsync, synchronous_commit) so numbers are honest, and enough predicate-lock
     * slots that SERIALIZABLE runs do not fail with "out of shared memory".
     */
    public static Map<String, String> defaultSettings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("listen_addresses", "localhost");
        // TCP only: a Unix socket path under a long cache path can exceed the 107-byte limit.
        s.put("unix_socket_directories", "");
        s.put("max_connections", "300");
        s.put("shared_buffers", "256MB");
        s.put("fsync", "on");
        s.put("synchronous_commit", "on");
        s.put("full_page_writes", "on");
        s.put("checkpoint_timeout", "15min");
        s.put("max_wal_size", "4GB");
        s.put("max_pred_locks_per_transaction", "256");
        return s;
    }

    /**
     * Where binaries and the default data directory live: {@code /var/tmp/gauntlet} for root (the server
     * account cannot enter /root), else {@code ${XDG_CACHE_HOME:-~/.cache}/gauntlet}.
     */
    public static Path defaultCacheDirectory() {
        if (ServerAccount.isRoot()) {
            return Path.of("/var/tmp/gauntlet");
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()
                ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("gauntlet");
    }

    /**
     * Unpacks the binaries if needed, initialises the data directory if it has no PG_VERSION, and starts the
     * server on a free localhost port, or attaches to the server already running there. Returns this; calling
     * it on a started server does nothing.
     */
    @SuppressWarnings("try") // the startup lock is held for the block, never referenced in it
    public synchronized LocalPostgres start() {
        if (state == State.RUNNING || state == State.ATTACHED) {
            return this;
        }
        Path cache = (cacheDirectory != null ? cacheDirectory : defaultCacheDirectory()).toAbsolutePath().normalize();
        try {
            account = ServerAccount.forThisProcess();
            // Checked before anything is created, so a refusal leaves no folders behind.
            account.ensureReachable(cache);
            binaries = PostgresBinaries.unpackedUnder(cache);
            account.ensureReachable(binaries.home());
            dataDirectory = configuredDataDirectory != null
                    ? configuredDataDirectory.toAbsolutePath().normalize()
                    : cache.resolve("postgres-" + binaries.majorVersion()).resolve("data");
            account.ensureReachable(dataDirectory.getParent());
            ServerAccount.createOpenDirectories(dataDirectory.getParent());
            serverLog = new ServerLog(dataDirectory.resolve(LOG_FILE));
            tools = new PostgresTool(account, serverLog, TOOL_LIMIT);
            try (StartupLock lock = StartupLock.acquire(cache, dataDirectory, STARTUP_LOCK_PATIENCE)) {
                Optional<PostmasterPid> pid = PostmasterPid.read(dataDirectory);
                if (pid.isPresent() && pid.get().isRunning(dataDirectory)) {
                    if (freshPending) {
                        throw new LocalPostgresException("cannot start afresh in " + dataDirectory
                                + ": a server (pid " + pid.get().pid() + ") is running on it; stop it first");
                    }
                    attach(pid.get());
                } else {
                    startOwnServer(pid.orElse(null));
                }
            }
        } catch (IOException e) {
            throw new LocalPostgresException("could not prepare PostgreSQL in "
                    + (dataDirectory != null ? dataDirectory : cache) + ": " + e, e);
        }
        version = queryVersion();
        log.debug("PostgreSQL {} on port {} with data in {} ({})", binaries.version(), port, dataDirectory,
                state == State.ATTACHED ? "attached" : "started");
        return this;
    }

    /** The TCP port on localhost. */
    public synchronized int port() {
        requireStarted();
        return port;
    }

    /** The superuser that initdb created; it connects without a password from localhost. */
    public String user() {
        return SUPERUSER;
    }

    public synchronized String jdbcUrl(String database) {
        requireStarted();
        return "jdbc:postgresql://localhost:" + port + "/" + URLEncoder.encode(database, StandardCharsets.UTF_8);
    }

    /** A command line a user can paste to look at the database (psql is not part of the embedded binaries). */
    public synchronized String psqlCommand(String database) {
        requireStarted();
        return "psql -h localhost -p " + port + " -U " + SUPERUSER + " " + database;
    }

    /** The server's {@code select version()}, like "PostgreSQL 18.6 on x86_64-pc-linux-gnu, compiled by ...". */
    public synchronized String version() {
        requireStarted();
        return version;
    }

    public synchronized Path dataDirectory() {
        requireStarted();
        return dataDirectory;
    }

    /** The server's log in the data directory; postgres appends to it across restarts. */
    public synchronized Path logFile() {
        requireStarted();
        return serverLog.file();
    }

    /** The settings this instance starts the server with (defaults plus the caller's). */
    public Map<String, String> settings() {
        return settings;
    }

    /** True when another process started the server and this instance only connects to it. */
    public synchronized boolean attached() {
        return state == State.ATTACHED;
    }

    /** An administrative connection as the superuser (connect timeout 10 s, auto-commit on). */
    public Connection connect(String database) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", SUPERUSER);
        properties.setProperty("connectTimeout", "10");
        properties.setProperty("ApplicationName", "gauntlet");
        return DriverManager.getConnection(jdbcUrl(database), properties);
    }

    /** Creates the database unless it exists; safe when two processes race to create it. */
    public void createDatabaseIfAbsent(String database) {
        try (Connection c = connect("postgres")) {
            try (PreparedStatement exists = c.prepareStatement("select 1 from pg_database where datname = ?")) {
                exists.setString(1, database);
                try (ResultSet rs = exists.executeQuery()) {
                    if (rs.next()) {
                        return;
                    }
                }
            }
            try (Statement create = c.createStatement()) {
                create.execute("create database " + quoteIdentifier(database));
            } catch (SQLException e) {
                // 42P04 duplicate_database, or 23505 when a concurrent create won the race on the catalog index.
                if (!"42P04".equals(e.getSQLState()) && !"23505".equals(e.getSQLState())) {
                    throw e;
                }
            }
        } catch (SQLException e) {
            throw new LocalPostgresException("could not create database " + database + " on localhost:" + port()
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * Restarts the server on the same port: {@code immediate} aborts like a crash (recovery replays the WAL on
     * start), otherwise a fast shutdown rolls back open transactions and checkpoints. Clients see their
     * connections drop, which is what tests of reconnecting use it for. Only for a server this instance started.
     */
    public synchronized void restart(boolean immediate) {
        requireStarted();
        if (state == State.ATTACHED) {
            throw new IllegalStateException("this PostgreSQL (pid " + attachedPid + ") was started by another "
                    + "process; restart it there");
        }
        if (!ownServerRunning()) {
            state = State.STOPPED;
            throw new LocalPostgresException("cannot restart PostgreSQL in " + dataDirectory
                    + ": the server this instance started (pid " + serverPid + ") is no longer running");
        }
        long logMark = serverLog.mark();
        PostgresTool.Outcome outcome = tools.run(serverCommand("restart", "-m", immediate ? "immediate" : "fast"));
        if (!outcome.succeeded()) {
            if (!serverRunning()) {
                state = State.STOPPED;
            }
            throw tools.failure("PostgreSQL did not restart in " + dataDirectory, outcome, logMark);
        }
        serverPid = currentPostmasterPid();
    }

    /**
     * Stops a server this instance started (fast shutdown, immediate if that fails); detaches from one another
     * process started. Idempotent: stopping a stopped or never-started instance does nothing.
     */
    public synchronized void stop() {
        if (state == State.ATTACHED) {
            state = State.STOPPED;
            return;
        }
        if (state != State.RUNNING) {
            return;
        }
        if (!ownServerRunning()) {
            // It crashed or was killed, and perhaps another instance has started a server here since.
            state = State.STOPPED;
            return;
        }
        long logMark = serverLog.mark();
        PostgresTool.Outcome fast = tools.run(stopCommand("fast"));
        if (!fast.succeeded() && serverRunning()) {
            PostgresTool.Outcome immediate = tools.run(stopCommand("immediate"));
            if (!immediate.succeeded() && serverRunning()) {
                throw tools.failure("could not stop PostgreSQL in " + dataDirectory, immediate, logMark);
            }
        }
        state = State.STOPPED;
    }

    /**
     * Stops a server this instance started the way a power loss would look to its clients: an immediate shutdown
     * (no checkpoint; the next start replays the WAL). Does nothing when it is not running.
     */
    public synchronized void stopImmediately() {
        if (state != State.RUNNING) {
            return;
        }
        if (ownServerRunning()) {
            long logMark = serverLog.mark();
            PostgresTool.Outcome outcome = tools.run(stopCommand("immediate"));
            if (!outcome.succeeded() && serverRunning()) {
                throw tools.failure("could not stop PostgreSQL in " + dataDirectory, outcome, logMark);
            }
        }
        state = State.STOPPED;
    }

    /** The server's processes (postmaster and children), e.g. to freeze them; empty when it is not running. */
    public synchronized List<Long> serverProcesses() {
        requireStarted();
        return PostmasterPid.processesIn(dataDirectory);
    }

    /** Same as {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    @Override
    public synchronized String toString() {
        return "LocalPostgres[" + state + (port > 0 ? ", port " + port : "")
                + (dataDirectory != null ? ", " + dataDirectory : "") + "]";
    }

    /** Starts a server of our own, discarding the data first if asked; {@code staleLock} may be null. */
    private void startOwnServer(PostmasterPid staleLock) throws IOException {
        if (staleLock != null) {
            staleLock.removeOnceItsProcessesAreGone(dataDirectory, SERVER_WAIT);
        }
        DataDirectory data = new DataDirectory(dataDirectory, account, tools);
        if (freshPending) {
            data.discard();
        }
        freshPending = false;
        data.prepare(binaries, SUPERUSER);
        data.writeSettings(settings);
        startServer();
    }

    private void startServer() {
        int attempts = preferredPort > 0 ? 1 : PORT_ATTEMPTS;
        for (int attempt = 1; ; attempt++) {
            port = choosePort();
            long logMark = serverLog.mark();
            PostgresTool.Outcome outcome = tools.run(serverCommand("start"));
            if (outcome.succeeded()) {
                state = State.RUNNING;
                serverPid = currentPostmasterPid();
                return;
            }
            // Another program may take the port between our probe and the server binding it.
            if (attempt < attempts && serverLog.since(logMark).contains("could not bind")) {
                log.debug("port {} was taken before the server could bind it; trying another", port);
                port = 0;
                continue;
            }
            throw tools.failure("PostgreSQL " + binaries.version() + " did not start in " + dataDirectory + " on port "
                    + port, outcome, logMark);
        }
    }

    private void attach(PostmasterPid pid) {
        long deadline = System.nanoTime() + SERVER_WAIT.toNanos();
        while (!pid.isReady() && pid.isRunning(dataDirectory) && System.nanoTime() < deadline) {
            sleep(Duration.ofMillis(200));
            pid = PostmasterPid.read(dataDirectory).orElse(pid);
        }
        if (!pid.isReady()) {
            throw new LocalPostgresException("a PostgreSQL server (pid " + pid.pid() + ") on " + dataDirectory
                    + " is '" + pid.status() + "', not ready; wait for it or stop it");
        }
        port = pid.port();
        attachedPid = pid.pid();
        state = State.ATTACHED;
        if (!settings.equals(defaultSettings())) {
            log.debug("attached to the running server on port {}; this instance's settings are not applied", port);
        }
    }

    private String queryVersion() {
        try (Connection c = connect("postgres");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("select version()")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            State was = state;
            if (was == State.RUNNING) {
                // A server we cannot use is one the caller cannot stop either: start() is about to throw.
                try {
                    stop();
                } catch (RuntimeException stopFailure) {
                    e.addSuppressed(stopFailure);
                }
            }
            state = State.STOPPED;
            throw new LocalPostgresException("PostgreSQL "
                    + (was == State.ATTACHED ? "(pid " + attachedPid + ", started by another process) " : "")
                    + "on " + dataDirectory + " does not accept connections on localhost:" + port + ": "
                    + e.getMessage(), e);
        }
    }

    private List<String> serverCommand(String action, String... extra) {
        List<String> command = new ArrayList<>(List.of(binaries.tool("pg_ctl"), action,
                "-D", dataDirectory.toString(), "-l", serverLog.file().toString(),
                "-w", "-t", Long.toString(SERVER_WAIT.toSeconds()), "-s"));
        command.addAll(List.of(extra));
        command.add("-o");
        command.add(serverOptions());
        return command;
    }

    private List<String> stopCommand(String mode) {
        return List.of(binaries.tool("pg_ctl"), "stop", "-D", dataDirectory.toString(),
                "-w", "-t", Long.toString(SERVER_WAIT.toSeconds()), "-s", "-m", mode);
    }

    /** Only the port goes on the command line; settings are in {@link DataDirectory#SETTINGS_FILE} (see there why). */
    private String serverOptions() {
        return "-p " + port;
    }

    private int choosePort() {
        if (preferredPort > 0) {
            return preferredPort;
        }
        return port > 0 && LoopbackPorts.isFree(port) ? port : LoopbackPorts.free();
    }

    private boolean ownServerRunning() {
        return PostmasterPid.read(dataDirectory)
                .filter(p -> p.pid() == serverPid && p.isRunning(dataDirectory))
                .isPresent();
    }

    private long currentPostmasterPid() {
        return PostmasterPid.read(dataDirectory).map(PostmasterPid::pid).orElse(-1L);
    }

    private boolean serverRunning() {
        return PostmasterPid.read(dataDirectory).map(p -> p.isRunning(dataDirectory)).orElse(false);
    }

    private static String quoteIdentifier(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private void requireStarted() {
        if (state != State.RUNNING && state != State.ATTACHED) {
            throw new IllegalStateException("LocalPostgres is " + state.name().toLowerCase() + "; call start() first");
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalPostgresException("interrupted while waiting for PostgreSQL", e);
        }
    }

    /** Settings for a {@link LocalPostgres}; nothing happens until {@link LocalPostgres#start()}. */
    public static final class Builder {

        private Path cacheDirectory;
        private Path dataDirectory;
        private boolean fresh;
        private int port;
        private final Map<String, String> settings = defaultSettings();

        private Builder() {
        }

        /** Where binaries are unpacked and the default data directory lives; see {@link #defaultCacheDirectory()}. */
        public Builder cacheDirectory(Path directory) {
            this.cacheDirectory = directory;
            return this;
        }

        /** The data directory; by default {@code <cacheDirectory>/postgres-<major>/data}, kept between runs. */
        public Builder dataDirectory(Path directory) {
            this.dataDirectory = directory;
            return this;
        }

        /**
         * Discard the data directory before the first start, for a run that must not see earlier data. Only a
         * PostgreSQL data directory (or an empty folder) is ever deleted; anything else makes start() fail.
         */
        public Builder fresh(boolean fresh) {
            this.fresh = fresh;
            return this;
        }

        /** A fixed port instead of a free one chosen at start. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0 (any free port) to 65535, not " + port);
            }
            this.port = port;
            return this;
        }

        /** A server setting ({@code -c name=value}) added to or replacing {@link #defaultSettings()}. */
        public Builder setting(String name, String value) {
            if (!SETTING_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("not a PostgreSQL setting name: '" + name + "'");
            }
            if (name.equals("port")) {
                throw new IllegalArgumentException("set the port with port(int), not as a setting");
            }
            if (value == null || value.indexOf('\n') >= 0 || value.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("setting " + name + " needs a one-line value");
            }
            settings.put(name, value);
            return this;
        }

        public LocalPostgres build() {
            return new LocalPostgres(this);
        }
    }
}
