package dev.gauntlet.sql.adversity;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The servers a run targets, as a PostgreSQL JDBC URL names them ({@code jdbc:postgresql://HOST[:PORT][,HOST[:PORT]...]
 * /DATABASE}, port 5432 when not given), and the database: what the user's commands are told
 * ({@link CommandEnvironment}) and what Toxiproxy puts a proxy in front of ({@link ServerProxies}).
 *
 * <p>A plan names a server ({@link #positions}) by its place in the URL, {@code n1} for the first, {@code n2} for the
 * second..., or as the URL writes it: {@code host:port}, or a bare {@code host} for every server on that host.
 */
public record TargetHosts(List<HostPort> hosts, String database) {

    private static final Pattern URL = Pattern.compile("^jdbc:postgresql://([^/?]+)(?:/([^?]*))?(?:\\?.*)?$");

    /** One server: a host name or address and a port. */
    public record HostPort(String host, int port) {
        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    public TargetHosts {
        hosts = List.copyOf(hosts);
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("no hosts");
        }
        database = database == null ? "" : database;
    }

    /** The hosts of a JDBC URL; empty when it is not a {@code jdbc:postgresql://HOST...} URL. */
    public static Optional<TargetHosts> ofUrl(String url) {
        Matcher m = URL.matcher(url == null ? "" : url);
        if (!m.matches()) {
            return Optional.empty();
        }
        List<HostPort> hosts = new ArrayList<>();
        for (String hostPort : m.group(1).split(",")) {
            int colon = hostPort.lastIndexOf(':');
            boolean hasPort = colon > 0 && !hostPort.endsWith("]");
            try {
                hosts.add(new HostPort(hasPort ? hostPort.substring(0, colon) : hostPort,
                        hasPort ? Integer.parseInt(hostPort.substring(colon + 1)) : 5432));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        return Optional.of(new TargetHosts(hosts, m.group(2)));
    }

    /**
     * The URL with its servers replaced by {@code servers} (in that order), the database and parameters kept; empty
     * when it is not a {@code jdbc:postgresql://HOST...} URL.
     */
    public static Optional<String> withServers(String url, List<HostPort> servers) {
        Matcher m = URL.matcher(url == null ? "" : url);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of("jdbc:postgresql://" + servers.stream().map(HostPort::toString)
                .collect(Collectors.joining(",")) + url.substring(m.end(1)));
    }

    /** {@code n1}, {@code n2}...: how a plan names the server at {@code position} (0 for the first) of a URL. */
    public static String name(int position) {
        return "n" + (position + 1);
    }

    /**
     * The positions (0 for n1), in the URL's order, of the servers {@code names} single out: each a position
     * ({@code n2}), a {@code host:port} or a bare host (every server on it) as the URL writes it.
     *
     * @throws IllegalArgumentException naming the first name that is no server of the URL, or that is a position and a
     *                                  host of two different servers
     */
    public List<Integer> positions(List<String> names) {
        SortedSet<Integer> chosen = new TreeSet<>();
        for (String name : names) {
            int place = positionNamed(name);
            boolean byPlace = place >= 0 && place < hosts.size();
            List<Integer> byAddress = IntStream.range(0, hosts.size()).filter(i -> hosts.get(i).toString()
                    .equalsIgnoreCase(name) || hosts.get(i).host().equalsIgnoreCase(name)).boxed().toList();
            if (!byPlace && byAddress.isEmpty()) {
                throw new IllegalArgumentException("'" + name + "' is no server of the target (" + named() + ")");
            }
            if (byPlace && !byAddress.isEmpty() && !byAddress.equals(List.of(place))) {
                throw new IllegalArgumentException("'" + name + "' names " + name(place) + " by its place and other "
                        + "servers by their host (" + named() + "); write host:port");
            }
            chosen.addAll(byAddress.isEmpty() ? List.of(place) : byAddress);
        }
        return List.copyOf(chosen);
    }

    /** The position {@code nK} names (K - 1), or -1 when it is not of that form. */
    static int positionNamed(String name) {
        if (!name.matches("n[1-9][0-9]{0,3}")) {
            return -1;
        }
        return Integer.parseInt(name.substring(1)) - 1;
    }

    /** {@code n1 = host:port, n2 = host:port}, for messages and listings. */
    public String named() {
        return named(IntStream.range(0, hosts.size()).boxed().toList());
    }

    /** The servers at {@code positions} as {@link #named()} writes them. */
    public String named(List<Integer> positions) {
        return positions.stream().map(i -> name(i) + " = " + hosts.get(i)).collect(Collectors.joining(", "));
    }

    /** Servers on this machine, by port. */
    public static TargetHosts local(List<Integer> ports, String database) {
        return new TargetHosts(ports.stream().map(p -> new HostPort("localhost", p)).toList(), database);
    }

    /** {@code host:port,host:port}. */
    public String joined() {
        return hosts.stream().map(HostPort::toString).collect(Collectors.joining(","));
    }
}
