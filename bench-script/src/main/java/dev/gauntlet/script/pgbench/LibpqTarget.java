package dev.gauntlet.script.pgbench;

import dev.gauntlet.script.workload.PgbenchAbort;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The server pgbench's command line names, found as libpq finds it: {@code -h}, {@code -p}, {@code -U} and the
 * database, else {@code PGHOST}, {@code PGPORT}, {@code PGUSER} and their defaults (a Unix-domain socket in the
 * default socket directory, 5432, the login name); {@code PGPASSWORD}, else the password file pgjdbc reads as libpq
 * does ({@code PGPASSFILE}, {@code ~/.pgpass}); {@code PGSSLMODE}, {@code PGOPTIONS}, {@code PGAPPNAME},
 * {@code PGCONNECT_TIMEOUT}. A host that is a directory is a socket directory, reached through junixsocket. As a JDBC
 * URL and properties, for this process and for {@code run}'s {@code --url}.
 */
public record LibpqTarget(String host, String port, String user, String database, String url, Properties properties) {

    /** Debian's, and libpq's default elsewhere. */
    private static final String[] SOCKET_DIRECTORIES = {"/var/run/postgresql", "/tmp"};

    /** The target of these settings in this environment. */
    public static LibpqTarget of(PgbenchSettings s, Map<String, String> env) {
        String host = first(s.host, env.get("PGHOST"), null);
        if (host == null) {
            host = SOCKET_DIRECTORIES[0];
            for (String dir : SOCKET_DIRECTORIES) {
                if (Files.isDirectory(Path.of(dir))) {
                    host = dir;
                    break;
                }
            }
        }
        String port = first(s.port, env.get("PGPORT"), "5432");
        String user = first(s.username, env.get("PGUSER"), System.getProperty("user.name"));
        Map<String, String> params = new LinkedHashMap<>();
        boolean socket = host.startsWith("/");
        if (socket) {
            params.put("socketFactory", "org.newsclub.net.unix.AFUNIXSocketFactory$FactoryArg");
            params.put("socketFactoryArg", host + "/.s.PGSQL." + port);
            params.put("sslmode", "disable");
        } else if (env.get("PGSSLMODE") != null) {
            params.put("sslmode", env.get("PGSSLMODE"));
        }
        if (env.get("PGOPTIONS") != null) {
            params.put("options", env.get("PGOPTIONS"));
        }
        params.put("ApplicationName", first(env.get("PGAPPNAME"), null, "pgbench"));
        if (env.get("PGCONNECT_TIMEOUT") != null) {
            params.put("connectTimeout", env.get("PGCONNECT_TIMEOUT"));
        }
        StringBuilder url = new StringBuilder("jdbc:postgresql://")
                .append(socket ? "localhost" : host.contains(":") ? "[" + host + "]" : host).append(':').append(port)
                .append('/').append(encode(s.dbName));
        char sep = '?';
        for (Map.Entry<String, String> p : params.entrySet()) {
            url.append(sep).append(p.getKey()).append('=').append(p.getKey().equals("socketFactory") ? p.getValue()
                    : encode(p.getValue()));
            sep = '&';
        }
        Properties props = new Properties();
        props.setProperty("user", user);
        if (env.get("PGPASSWORD") != null) {
            props.setProperty("password", env.get("PGPASSWORD"));
        }
        return new LibpqTarget(host, port, user, s.dbName, url.toString(), props);
    }

    /** A connection, or pgbench's refusal: {@code connection to server ... failed: FATAL:  ...}, exit 1. */
    public Connection connect() {
        try {
            return DriverManager.getConnection(url, properties);
        } catch (SQLException e) {
            throw new PgbenchExit(1, java.util.List.of(PgbenchLog.error("connection to server " + where() + " failed: "
                    + PgbenchAbort.libpq(e))));
        }
    }

    /** As libpq names a server in its messages. */
    public String where() {
        return host.startsWith("/") ? "on socket \"" + host + "/.s.PGSQL." + port + "\""
                : "at \"" + host + "\", port " + port;
    }

    private static String first(String a, String b, String otherwise) {
        if (a != null && !a.isEmpty()) {
            return a;
        }
        return b != null && !b.isEmpty() ? b : otherwise;
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
