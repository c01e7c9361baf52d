package dev.gauntlet.sql;

import dev.gauntlet.core.result.Redaction;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;

/**
 * Where and how to connect. pgjdbc's {@code connectTimeout} and {@code socketTimeout} are set by default so a
 * stalled server cannot hang a client forever; parameters in the URL override these defaults.
 * The password never appears in {@link #toString()}.
 */
public final class ConnectionSettings {

    /** Benchmark sessions: a statement stuck this long means the server is stalled. */
    public static final Duration SESSION_SOCKET_TIMEOUT = Duration.ofSeconds(30);
    /** Loading, checks and administration run long statements legitimately. */
    public static final Duration ADMIN_SOCKET_TIMEOUT = Duration.ofMinutes(30);
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /**
     * A watched session's whole startup: connect, TLS and authentication (libpq's {@code connect_timeout} bounds the
     * same); as long as a statement may take, since a server this slow to let a session in is stalled as well.
     */
    public static final Duration STARTUP_LIMIT = SESSION_SOCKET_TIMEOUT;

    private final String url;
    private final String user;
    private final String password;

    public ConnectionSettings(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /**
     * Settings for {@code url} as a user gives it: {@code user} and {@code password} unless null, else
     * {@code $PGUSER} (default {@code postgres}) and {@code $PGPASSWORD}. A {@code user} or {@code password}
     * parameter in the URL wins over all of these, as pgjdbc reads the URL's parameters last.
     */
    public static ConnectionSettings withDefaults(String url, String user, String password) {
        String pass = password != null ? password : System.getenv("PGPASSWORD");
        String who = user != null ? user : System.getenv().getOrDefault("PGUSER", "postgres");
        return new ConnectionSettings(url, who, pass);
    }

    public String url() {
        return url;
    }

    public String user() {
        return user;
    }

    /** For drivers, pools and poolers (PgBouncer's auth file) only; never print it. */
    public String password() {
        return password;
    }

    public boolean hasPassword() {
        return password != null && !password.isEmpty();
    }

    public Properties properties(Duration socketTimeout) {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        p.setProperty("connectTimeout", Long.toString(CONNECT_TIMEOUT.toSeconds()));
        p.setProperty("socketTimeout", Long.toString(socketTimeout.toSeconds()));
        p.setProperty("tcpKeepAlive", "true");
        p.setProperty("ApplicationName", "gauntlet");
        if (socketTimeout.equals(SESSION_SOCKET_TIMEOUT)) {
            // Benchmark sessions count their round trips on the wire (administration and checks do not).
            p.setProperty("socketFactory", CountingSockets.class.getName());
        }
        return p;
    }

    /** A connection for a benchmark session (short socket timeout). */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, properties(SESSION_SOCKET_TIMEOUT));
    }

    /**
     * A benchmark session with a blocking socket (one read a wait, no poll before it), for a caller that watches it
     * instead (a target's session watchdog aborts it when a transaction outlasts {@link #SESSION_SOCKET_TIMEOUT}):
     * no socket timeout, and its startup (connect, TLS, authentication) bounded as a whole by
     * {@link #STARTUP_LIMIT} rather than by pgjdbc's timed connect, TLS answer and handshake, any of which would leave the
     * JDK's socket non-blocking for good ({@link CountingSockets}); round trips counted as on every session.
     */
    public Connection connectWatched() throws SQLException {
        Properties p = properties(SESSION_SOCKET_TIMEOUT);
        p.setProperty("socketTimeout", "0");
        try (CountingSockets.Startup startup = CountingSockets.startup(STARTUP_LIMIT)) {
            Connection c;
            try {
                c = DriverManager.getConnection(url, p);
            } catch (SQLException e) {
                throw startup.expired() ? startupTooLong(e) : e;
            }
            if (startup.expired()) { // the timer closed the socket just as the startup ended
                c.close();
                throw startupTooLong(null);
            }
            return c;
        }
    }

    private static SQLException startupTooLong(SQLException cause) {
        return new SQLException("the server did not finish a session's startup (connect, TLS, authentication) within "
                + STARTUP_LIMIT.toSeconds() + " s", "08001", cause);
    }

    /** A connection for loading, checks and administration (long socket timeout). */
    public Connection connectForAdmin() throws SQLException {
        return DriverManager.getConnection(url, properties(ADMIN_SOCKET_TIMEOUT));
    }

    @Override
    public String toString() {
        return "ConnectionSettings[url=" + Redaction.url(url) + ", user=" + user + "]";
    }
}
