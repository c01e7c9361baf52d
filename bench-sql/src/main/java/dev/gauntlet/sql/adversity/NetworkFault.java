package dev.gauntlet.sql.adversity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * A fault on the network between the workload and the database, as Toxiproxy toxics on the proxies of the servers the
 * plan's {@code hosts} single out (every server's when it names none), for a share of the connections (a partial
 * partition when the share is below 1): {@code latency} (each way, with jitter), {@code bandwidth} (the database's
 * replies), {@code blackhole} (data dropped, connections left open: a partition), {@code reset} (connections reset).
 * Removed when it stops.
 */
final class NetworkFault extends SystemDisruption {

    private record Toxic(String type, String stream, Map<String, Object> attributes) {
    }

    private final double share;
    private final List<String> hosts;
    private final List<Toxic> toxics = new ArrayList<>();
    private final String description;
    private final List<String[]> added = new ArrayList<>();

    NetworkFault(String name, SystemUnderTest system, DisruptionSpec spec) {
        super(name, system);
        this.share = spec.shareOption("share");
        this.hosts = spec.listOption("hosts");
        switch (spec.kind()) {
            case LATENCY -> {
                long ms = spec.durationOption("latency").toMillis();
                long jitter = spec.durationOption("jitter").toMillis();
                Map<String, Object> a = Map.of("latency", ms, "jitter", jitter);
                toxics.add(new Toxic("latency", "upstream", a));
                toxics.add(new Toxic("latency", "downstream", a));
                description = ms + " ms latency each way" + (jitter > 0 ? " (+/- " + jitter + " ms)" : "");
            }
            case BANDWIDTH -> {
                long rate = Math.round(spec.numberOption("rate"));
                toxics.add(new Toxic("bandwidth", "downstream", Map.of("rate", rate)));
                description = "replies limited to " + rate + " KB/s";
            }
            case BLACKHOLE -> {
                toxics.add(new Toxic("timeout", "upstream", Map.of("timeout", 0)));
                toxics.add(new Toxic("timeout", "downstream", Map.of("timeout", 0)));
                description = share >= 1 ? "full partition (all data dropped)" : "partial partition (data dropped)";
            }
            case RESET -> {
                toxics.add(new Toxic("reset_peer", "downstream", Map.of("timeout", 0)));
                description = "connections reset";
            }
            default -> throw new IllegalArgumentException(spec.kind().label() + " is not a network fault");
        }
    }

    @Override
    public synchronized void start(Log log) throws Exception {
        ServerProxies proxies = system.proxies().orElseThrow();
        TargetHosts servers = proxies.servers();
        List<Integer> on = hosts.isEmpty() ? IntStream.range(0, servers.hosts().size()).boxed().toList()
                : servers.positions(hosts);
        for (String p : proxies.proxies(on)) {
            for (int i = 0; i < toxics.size(); i++) {
                Toxic t = toxics.get(i);
                String toxicName = name.replaceAll("\\W", "_") + "_" + i;
                proxies.toxiproxy().addToxic(p, toxicName, t.type(), t.stream(), share, t.attributes());
                added.add(new String[] {p, toxicName});
            }
        }
        int all = servers.hosts().size();
        log.note(String.format(Locale.ROOT, "%s for %.0f%% of connections to %s", description, share * 100,
                on.size() == all ? "every server (" + all + " Toxiproxy prox" + (all == 1 ? "y)" : "ies)")
                        : servers.named(on) + " only (" + (on.size() == 1 ? "its" : "their") + " Toxiproxy prox"
                        + (on.size() == 1 ? "y" : "ies") + ", " + on.size() + " of " + all + ")"));
    }

    @Override
    public synchronized void stop(Log log) throws Exception {
        Toxiproxy proxy = system.proxies().orElseThrow().toxiproxy();
        Exception failure = null;
        for (String[] a : added) {
            try {
                proxy.removeToxic(a[0], a[1]);
            } catch (Exception e) {
                failure = e;
            }
        }
        added.clear();
        if (failure != null) {
            proxy.reset();
            log.note("toxics removed by a reset of Toxiproxy after: " + failure.getMessage());
        }
    }
}
