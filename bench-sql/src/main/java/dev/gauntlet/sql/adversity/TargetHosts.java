package dev.gauntlet.sql.adversity;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The servers a run targets, as a PostgreSQL JDBC URL names them ({@code jdbc:postgresql://HOST[:PORT][,HOST[:PORT]...]
 * /DATABASE}, port 5432 when not given), and the database: what the user's commands are told
 * ({@link CommandEnvironment}) and what Toxiproxy puts a proxy in front of.
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

    /** Servers on this machine, by port. */
    public static TargetHosts local(List<Integer> ports, String database) {
        return new TargetHosts(ports.stream().map(p -> new HostPort("localhost", p)).toList(), database);
    }

    /** {@code host:port,host:port}. */
    public String joined() {
        return hosts.stream().map(HostPort::toString).collect(Collectors.joining(","));
    }
}
