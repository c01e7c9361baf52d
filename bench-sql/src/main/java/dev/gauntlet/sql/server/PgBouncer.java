package dev.gauntlet.sql.server;

import dev.gauntlet.core.host.Executables;
import dev.gauntlet.core.host.HostCommand;
import dev.gauntlet.core.host.LoopbackPorts;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.JdbcTarget;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PgBouncer that Gauntlet starts in transaction mode in front of a PostgreSQL server, for {@code --pool
 * pgbouncer}: it listens on a free port of 127.0.0.1, lets local clients in without a password, and keeps at
 * most {@code poolSize} connections to the server, logging in there with the server settings' user and password.
 *
 * <p>Its config, auth file, log and pid file live in a fresh temporary directory that {@link #close()} deletes.
 * PgBouncer refuses to run as root, so a root JVM runs it as {@code nobody} (see {@link ServerAccount}). It runs
 * in the foreground as a child of this JVM; nothing stops it except {@link #close()}, which the caller must call.
 * Failures are one-line {@link IllegalStateException}s ending with the tail of PgBouncer's log. The password is
 * only ever written to the auth file (mode 600) and never logged.
 *
 * <pre>{@code
 * try (PgBouncer bouncer = PgBouncer.start(server, 20, 100, JdbcTarget.DEFAULT_ISOLATION)) {
 *     Connection c = bouncer.settings().connect();
 * }
 * }</pre>
 */
public final class PgBouncer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PgBouncer.class);
    private static final String CONFIG_FILE = "pgbouncer.ini";
    private static final String AUTH_FILE = "userlist.txt";
    private static final String LOG_FILE = "pgbouncer.log";
    private static final String PID_FILE = "pgbouncer.pid";
    private static final String URL_PREFIX = "jdbc:postgresql://";
    /** Client connections beyond the benchmark's clients: a probe, an admin connection, a check or two. */
    private static final int CLIENT_HEADROOM = 10;
    private static final Duration START_LIMIT = Duration.ofSeconds(10);
    private static final Duration STOP_LIMIT = Duration.ofSeconds(10);
    private static final int PORT_ATTEMPTS = 3;
    private static final int TAIL_LINES = 6;
    /** PgBouncer 1.18 cannot quote a database name on the left of its [databases] section. */
    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.$-]*");

    private final Path directory;
    private final Process process;
    private final int port;
    private final String database;
    private final String user;
    private final String password;
    private final String version;
    private volatile boolean closed;

    private PgBouncer(Path directory, Process process, int port, String database, String user, String password,
                      String version) {
        this.directory = directory;
        this.process = process;
        this.port = port;
        this.database = database;
        this.user = user;
        this.password = password;
        this.version = version;
    }

    /** The {@code pgbouncer} executable: on the PATH, else in /usr/sbin, /usr/local/sbin or /usr/bin. */
    public static Optional<Path> binary() {
        return Executables.find("pgbouncer", "/usr/sbin", "/usr/local/sbin", "/usr/bin");
    }

    /** Throws a one-line {@link IllegalStateException}, naming the package to install, unless {@link #binary()} finds it. */
    public static void requireInstalled() {
        if (binary().isEmpty()) {
            throw notInstalled();
        }
    }

    private static IllegalStateException notInstalled() {
        return new IllegalStateException("--pool pgbouncer needs the pgbouncer binary, which is not installed "
                + "(Debian/Ubuntu: apt-get install pgbouncer)");
    }

    /**
     * Starts a PgBouncer in transaction mode in front of {@code server} and returns a direct target on it: each client
     * owns a connection to PgBouncer, which shares {@code poolSize} server connections among them. The isolation
     * level is set on every server connection by PgBouncer (clients leave theirs alone). Closing the target stops
     * PgBouncer ({@code target.owned(PgBouncer.class)} is it).
     *
     * @param maxClients the clients that will connect at once, for PgBouncer's {@code max_client_conn}
     * @param isolation  a {@code Connection.TRANSACTION_*} level, or {@link JdbcTarget#DEFAULT_ISOLATION}
     */
    public static JdbcTarget target(ConnectionSettings server, int poolSize, int maxClients, int isolation) {
        PgBouncer bouncer = start(server, poolSize, maxClients, isolation);
        return JdbcTarget.owning(bouncer.settings(), bouncer);
    }

    /**
     * Starts PgBouncer in front of the server that {@code server}'s URL ({@code jdbc:postgresql://host:port/db})
     * names, and returns once it accepts connections.
     *
     * @param poolSize   server connections PgBouncer keeps at most ({@code default_pool_size},
     *                   {@code max_db_connections})
     * @param maxClients client connections expected; {@code max_client_conn} allows a few more
     * @param isolation  a {@code Connection.TRANSACTION_*} level every server connection starts its transactions
     *                   at, or {@link JdbcTarget#DEFAULT_ISOLATION}; clients must not set it themselves, since a
     *                   {@code SET SESSION} would stay behind on whichever server connection ran it
     * @throws IllegalArgumentException the URL is not one PgBouncer can point at (a multi-host URL, say)
     * @throws IllegalStateException    PgBouncer is not installed, or did not start
     */
    public static PgBouncer start(ConnectionSettings server, int poolSize, int maxClients, int isolation) {
        if (poolSize < 1) {
            throw new IllegalArgumentException("PgBouncer's pool size must be at least 1, not " + poolSize);
        }
        if (maxClients < 1) {
            throw new IllegalArgumentException("PgBouncer needs at least 1 client, not " + maxClients);
        }
        ServerUrl target = ServerUrl.parse(server.url());
        String user = target.user() != null ? target.user() : server.user();
        String password = target.password() != null ? target.password() : server.password();
        if (user == null || user.isEmpty()) {
            throw new IllegalArgumentException("PgBouncer needs a user name to log in to the server as");
        }
        if (!PLAIN_NAME.matcher(target.database()).matches()) {
            throw new IllegalArgumentException("PgBouncer 1.18 cannot serve database '" + target.database()
                    + "': use a name of letters, digits, _, ., $ and -");
        }
        Path executable = binary().orElseThrow(PgBouncer::notInstalled);
        String version = queryVersion(executable);
        ServerAccount account = serverAccount();
        Path directory;
        try {
            directory = Files.createTempDirectory("gauntlet-pgbouncer-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a directory for PgBouncer: " + e, e);
        }
        try {
            writeAuthFile(directory.resolve(AUTH_FILE), user, password);
            for (int attempt = 1; ; attempt++) {
                int port = LoopbackPorts.free();
                writeConfig(directory, target, port, poolSize, maxClients, isolation);
                account.own(directory);
                account.ensureReachable(directory);
                Process process = launch(account, executable, directory);
                String failure = awaitListening(process, port);
                if (failure == null) {
                    log.debug("PgBouncer {} on 127.0.0.1:{} in front of {} (pool size {}), in {}", version, port,
                            target, poolSize, directory);
                    return new PgBouncer(directory, process, port, target.database(), user, password, version);
                }
                stop(process);
                String tail = logTail(directory);
                // Another program may take the port between our probe and PgBouncer binding it.
                if (attempt < PORT_ATTEMPTS && tail.contains("Address already in use")) {
                    log.debug("port {} was taken before PgBouncer could bind it; trying another", port);
                    Files.delete(directory.resolve(LOG_FILE));
                    continue;
                }
                throw new IllegalStateException("PgBouncer " + version + " " + failure + " on 127.0.0.1:" + port
                        + (account.isStandInForRoot() ? " as user nobody" : "") + "; its log: " + tail);
            }
        } catch (IOException | LocalPostgresException e) {
            deleteQuietly(directory);
            throw new IllegalStateException("cannot prepare PgBouncer in " + directory + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            deleteQuietly(directory);
            throw e;
        }
    }

    /**
     * Where clients connect: {@code jdbc:postgresql://127.0.0.1:PORT/DB?prepareThreshold=0} (no server-side
     * prepared statements, which transaction pooling would hand to the wrong server connection), as the same user.
     */
    public ConnectionSettings settings() {
        return new ConnectionSettings(URL_PREFIX + "127.0.0.1:" + port + "/"
                + URLEncoder.encode(database, StandardCharsets.UTF_8) + "?prepareThreshold=0", user, password);
    }

    public int port() {
        return port;
    }

    /** PgBouncer's version, like "1.18.0". */
    public String version() {
        return version;
    }

    /** The temporary directory with the config, auth file, log and pid file. */
    Path directory() {
        return directory;
    }

    /** PgBouncer's log (its standard error: in the foreground it logs there). */
    public Path logFile() {
        return directory.resolve(LOG_FILE);
    }

    /** Stops PgBouncer (SIGTERM, then SIGKILL after 10 s) and deletes its directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stop(process);
        deleteQuietly(directory);
    }

    @Override
    public String toString() {
        return "PgBouncer[" + version + ", 127.0.0.1:" + port + "/" + database + (closed ? ", closed" : "") + "]";
    }

    private static ServerAccount serverAccount() {
        try {
            return ServerAccount.forThisProcess();
        } catch (LocalPostgresException e) {
            throw new IllegalStateException("PgBouncer refuses to run as root and neither setpriv nor runuser "
                    + "(util-linux) was found to run it as user nobody; install util-linux or run as a normal user", e);
        }
    }

    private static void writeAuthFile(Path file, String user, String password) throws IOException {
        String secret = password == null ? "" : password;
        if (user.indexOf('\n') >= 0 || secret.indexOf('\n') >= 0 || secret.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("PgBouncer's auth file cannot hold a user name or password with a "
                    + "line break");
        }
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, quoteAuth(user) + " " + quoteAuth(secret) + "\n");
    }

    private static void writeConfig(Path directory, ServerUrl target, int port, int poolSize, int maxClients,
                                     int isolation) throws IOException {
        StringBuilder entry = new StringBuilder()
                .append("host=").append(quoteValue(target.host()))
                .append(" port=").append(target.port())
                .append(" dbname=").append(quoteValue(target.database()));
        if (isolation != JdbcTarget.DEFAULT_ISOLATION) {
            entry.append(" connect_query=").append(quoteValue("SET default_transaction_isolation = '"
                    + isolationName(isolation) + "'"));
        }
        String config = "# Written by Gauntlet for one run; deleted when the run ends.\n"
                + "[databases]\n"
                + target.database() + " = " + entry + "\n"
                + "\n[pgbouncer]\n"
                + "listen_addr = 127.0.0.1\n"
                + "listen_port = " + port + "\n"
                + "unix_socket_dir =\n"
                // Clients are on this machine only; PgBouncer logs in to the server with the auth file's password.
                + "auth_type = trust\n"
                + "auth_file = " + directory.resolve(AUTH_FILE) + "\n"
                + "pool_mode = transaction\n"
                + "default_pool_size = " + poolSize + "\n"
                + "max_db_connections = " + poolSize + "\n"
                + "max_client_conn = " + (maxClients + CLIENT_HEADROOM) + "\n"
                // pgjdbc sends extra_float_digits at startup, and options when asked; PgBouncer refuses unknown ones.
                + "ignore_startup_parameters = extra_float_digits,options\n"
                // Transaction pooling hands a server connection back between transactions, with nothing to reset.
                + "server_reset_query =\n"
                + "server_tls_sslmode = prefer\n"
                + "pidfile = " + directory.resolve(PID_FILE) + "\n";
        Path file = directory.resolve(CONFIG_FILE);
        Files.writeString(file, config);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    /**
     * In the foreground, PgBouncer logs to standard error (and would log a second time to a {@code logfile});
     * errors found before it has read its config go to standard error only, so that is the log we keep.
     */
    private static Process launch(ServerAccount account, Path executable, Path directory) throws IOException {
        HostCommand bouncer = HostCommand.of(account.command(
                        List.of(executable.toString(), directory.resolve(CONFIG_FILE).toString())))
                .in(directory).env("LC_ALL", "C");
        log.debug("running {}", bouncer.command());
        return bouncer.start(ProcessBuilder.Redirect.appendTo(directory.resolve(LOG_FILE).toFile()), null);
    }

    /** Null once the port accepts connections, else what went wrong. */
    private static String awaitListening(Process process, int port) {
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                return "exited with code " + process.exitValue() + " before it listened";
            }
            if (accepts(port)) {
                return null;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "was interrupted while starting";
            }
        }
        return "did not listen within " + START_LIMIT.toSeconds() + " s";
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops the process: SIGTERM (PgBouncer's immediate shutdown), then SIGKILL if it lingers. */
    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(STOP_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                log.debug("PgBouncer (pid {}) ignored SIGTERM for {} s; killing it", process.pid(),
                        STOP_LIMIT.toSeconds());
                process.destroyForcibly().waitFor(STOP_LIMIT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String queryVersion(Path executable) {
        try {
            String output = HostCommand.of(executable.toString(), "--version").within(START_LIMIT).run().output();
            String first = output.lines().findFirst().orElse("").strip();
            return first.startsWith("PgBouncer ") ? first.substring("PgBouncer ".length()) : first;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + executable + " --version: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking " + executable + " for its version", e);
        }
    }

    private static String logTail(Path directory) {
        try {
            List<String> lines = Files.readString(directory.resolve(LOG_FILE), StandardCharsets.UTF_8).lines()
                    .map(String::strip).filter(l -> !l.isEmpty()).toList();
            String tail = String.join(" | ", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
            return tail.isEmpty() ? "(empty)" : tail;
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    private static void deleteQuietly(Path directory) {
        try {
            PostgresBinaries.deleteTree(directory);
        } catch (IOException e) {
            log.debug("could not delete PgBouncer's directory {}", directory, e);
        }
    }

    static String isolationName(int isolation) {
        return switch (isolation) {
            case Connection.TRANSACTION_READ_UNCOMMITTED -> "read uncommitted";
            case Connection.TRANSACTION_READ_COMMITTED -> "read committed";
            case Connection.TRANSACTION_REPEATABLE_READ -> "repeatable read";
            case Connection.TRANSACTION_SERIALIZABLE -> "serializable";
            default -> throw new IllegalArgumentException("unknown isolation level " + isolation);
        };
    }

    /** A value in the [databases] connection string: single quotes, a quote doubled. */
    private static String quoteValue(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    /** A field of the auth file: double quotes, a quote doubled. */
    private static String quoteAuth(String value) {
        return "\"" + value.replace("\"", "\"\"") + "\"";
    }

    /** The parts of a single-host {@code jdbc:postgresql://host:port/database?...} URL that PgBouncer needs. */
    record ServerUrl(String host, int port, String database, String user, String password) {

        private static final Pattern URL = Pattern.compile("jdbc:postgresql://"
                + "(?:\\[(?<ipv6>[^\\]]*)]|(?<host>[^:/?\\[]*))(?::(?<port>[0-9]{1,5}))?"
                + "/(?<database>[^?]+)(?:\\?(?<query>.*))?");
        private static final Pattern MULTI_HOST = Pattern.compile("jdbc:postgresql://[^/?]*,.*");

        static ServerUrl parse(String url) {
            String given = url == null ? "" : url;
            if (MULTI_HOST.matcher(given).matches()) {
                throw new IllegalArgumentException("PgBouncer sits in front of one server, not the several hosts "
                        + "of a multi-host URL; give --url a single host");
            }
            Matcher m = URL.matcher(given);
            if (!m.matches()) {
                throw new IllegalArgumentException("PgBouncer needs a jdbc:postgresql://HOST:PORT/DATABASE URL");
            }
            String host = m.group("ipv6") != null ? m.group("ipv6") : m.group("host");
            String user = null;
            String password = null;
            for (String parameter : m.group("query") == null ? new String[0] : m.group("query").split("&")) {
                int eq = parameter.indexOf('=');
                if (eq > 0) {
                    String value = URLDecoder.decode(parameter.substring(eq + 1), StandardCharsets.UTF_8);
                    switch (parameter.substring(0, eq)) {
                        case "user" -> user = value;
                        case "password" -> password = value;
                        default -> { }
                    }
                }
            }
            return new ServerUrl(host.isEmpty() ? "localhost" : host,
                    m.group("port") == null ? 5432 : Integer.parseInt(m.group("port")),
                    URLDecoder.decode(m.group("database"), StandardCharsets.UTF_8), user, password);
        }

        /** Without the password. */
        @Override
        public String toString() {
            return host + ":" + port + "/" + database;
        }
    }
}
