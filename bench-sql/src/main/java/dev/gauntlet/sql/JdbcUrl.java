package dev.gauntlet.sql;

/**
 * The database part of a PostgreSQL JDBC URL ({@code jdbc:postgresql://host:port/db?params}, several hosts
 * included): read it, or the same URL on another database (what a test server or a per-run database needs).
 */
public final class JdbcUrl {

    private JdbcUrl() {
    }

    /** {@code url} with its database replaced (or added); hosts and parameters unchanged. */
    public static String withDatabase(String url, String database) {
        int hosts = url.indexOf("//");
        int query = url.indexOf('?', Math.max(hosts, 0));
        String beforeQuery = query < 0 ? url : url.substring(0, query);
        String params = query < 0 ? "" : url.substring(query);
        int slash = hosts < 0 ? -1 : beforeQuery.indexOf('/', hosts + 2);
        String prefix = slash < 0 ? beforeQuery : beforeQuery.substring(0, slash);
        return prefix + "/" + database + params;
    }

    /** The database {@code url} names; {@code postgres} (the server's default) when it names none. */
    public static String databaseOf(String url) {
        int hosts = url.indexOf("//");
        int query = url.indexOf('?', Math.max(hosts, 0));
        String beforeQuery = query < 0 ? url : url.substring(0, query);
        int slash = hosts < 0 ? -1 : beforeQuery.indexOf('/', hosts + 2);
        return slash < 0 || slash == beforeQuery.length() - 1 ? "postgres" : beforeQuery.substring(slash + 1);
    }
}
