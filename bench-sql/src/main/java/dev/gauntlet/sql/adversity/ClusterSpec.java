package dev.gauntlet.sql.adversity;

import java.util.Locale;

/**
 * The cluster a plan has Gauntlet start for its run ({@code cluster: patroni}, or a mapping with these keys): its
 * kind, its PostgreSQL nodes, the workload's way to the leader ({@code haproxy}: HAProxy's primary port;
 * {@code multi-host}: every node in one URL with {@code targetServerType=primary}), and how far (bytes) a replica may
 * be behind and still be promoted (Patroni's {@code maximum_lag_on_failover}). Whether commits wait for a standby is
 * the plan's {@code standby}.
 */
public record ClusterSpec(String kind, int nodes, String route, long maximumLagOnFailover) {

    public static final String PATRONI = "patroni";
    public static final int NODES = 3;
    public static final String HAPROXY = "haproxy";
    public static final String MULTI_HOST = "multi-host";
    /** Patroni's own default, 1 MB. */
    public static final long MAXIMUM_LAG = 1 << 20;

    public ClusterSpec {
        if (!PATRONI.equals(kind)) {
            throw new IllegalArgumentException("cluster '" + kind + "' is not one Gauntlet can start; patroni is");
        }
        if (nodes < 2 || nodes > 9) {
            throw new IllegalArgumentException("a Patroni cluster here has 2 to 9 nodes, not " + nodes);
        }
        if (!HAPROXY.equals(route) && !MULTI_HOST.equals(route)) {
            throw new IllegalArgumentException("route must be haproxy or multi-host, not '" + route + "'");
        }
        if (maximumLagOnFailover < 0) {
            throw new IllegalArgumentException("maximum-lag-on-failover must not be negative");
        }
    }

    public static ClusterSpec patroni() {
        return new ClusterSpec(PATRONI, NODES, HAPROXY, MAXIMUM_LAG);
    }

    /** Bytes as a plan writes them: {@code 1048576}, {@code 512kB}, {@code 16MB}, {@code 1GB}. */
    public static long bytes(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT).replace(" ", "");
        long unit = 1;
        for (String[] u : new String[][] {{"KB", "1024"}, {"MB", "1048576"}, {"GB", "1073741824"}, {"B", "1"}}) {
            if (t.endsWith(u[0])) {
                unit = Long.parseLong(u[1]);
                t = t.substring(0, t.length() - u[0].length());
                break;
            }
        }
        try {
            long v = Long.parseLong(t);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(v, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is not a size like 1048576, 512kB, 16MB or 1GB");
        }
    }
}
