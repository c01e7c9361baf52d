package dev.gauntlet.sql.adversity;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The workload's path to the database through Toxiproxy: one proxy in front of each server of the direct URL, in its
 * order ({@code n1}, {@code n2}, ... as {@link TargetHosts} names them), and the URL the workload's sessions take, the
 * direct one with each server replaced by its proxy (database and parameters kept, so a multi-host URL with
 * {@code targetServerType=primary} still finds the primary). Administration and probes keep the direct URL.
 *
 * <p>The servers are fixed when the proxies are made: on the embedded topology {@code n1} is the primary at start
 * and {@code n2} the standby, whatever a failover makes of them later.
 */
public final class ServerProxies implements AutoCloseable {

    private final Toxiproxy toxiproxy;
    private final TargetHosts servers;
    private final List<String> proxies;
    private final String sessionUrl;

    private ServerProxies(Toxiproxy toxiproxy, TargetHosts servers, List<String> proxies, String sessionUrl) {
        this.toxiproxy = toxiproxy;
        this.servers = servers;
        this.proxies = List.copyOf(proxies);
        this.sessionUrl = sessionUrl;
    }

    /**
     * Starts Toxiproxy with a proxy in front of each server of {@code directUrl}; closing this stops it.
     *
     * @throws IllegalArgumentException when the URL is not {@code jdbc:postgresql://HOST[:PORT][,...]/DATABASE}
     * @throws IllegalStateException    when Toxiproxy is not installed or does not start
     */
    public static ServerProxies start(String directUrl) throws IOException {
        TargetHosts servers = TargetHosts.ofUrl(directUrl).orElseThrow(() -> new IllegalArgumentException(
                "network disruptions need a jdbc:postgresql://HOST[:PORT][,HOST[:PORT]...]/DATABASE URL"));
        Toxiproxy toxiproxy = Toxiproxy.start();
        try {
            List<String> names = new ArrayList<>();
            List<TargetHosts.HostPort> listening = new ArrayList<>();
            for (int i = 0; i < servers.hosts().size(); i++) {
                TargetHosts.HostPort server = servers.hosts().get(i);
                String name = TargetHosts.name(i) + "-" + server.host().replaceAll("\\W", "_") + "-" + server.port();
                listening.add(new TargetHosts.HostPort("127.0.0.1", toxiproxy.proxy(name, server.host(),
                        server.port())));
                names.add(name);
            }
            return new ServerProxies(toxiproxy, servers, names, TargetHosts.withServers(directUrl, listening)
                    .orElseThrow());
        } catch (IOException | RuntimeException e) {
            toxiproxy.close();
            throw e;
        }
    }

    /** The URL the workload's sessions connect to: every server through its proxy. */
    public String sessionUrl() {
        return sessionUrl;
    }

    /** The servers behind the proxies, as the direct URL names them: what a plan's {@code hosts} are resolved on. */
    public TargetHosts servers() {
        return servers;
    }

    /** The names of the proxies in front of the servers at {@code positions} (0 for n1). */
    public List<String> proxies(List<Integer> positions) {
        return positions.stream().map(proxies::get).toList();
    }

    /** Every proxy's name, n1's first. */
    public List<String> proxies() {
        return proxies;
    }

    public Toxiproxy toxiproxy() {
        return toxiproxy;
    }

    /** Stops Toxiproxy: the proxies go with it. */
    @Override
    public void close() {
        toxiproxy.close();
    }
}
