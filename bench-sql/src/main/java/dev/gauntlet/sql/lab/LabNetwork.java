package dev.gauntlet.sql.lab;

import java.util.ArrayList;
import java.util.List;

/**
 * The lab's network on this machine: a bridge in the root namespace ({@code 10.201.S.1/24}, S picked free) and one
 * network namespace per host of the lab (a PostgreSQL node with its Patroni, an etcd member), each joined to the
 * bridge by a veth pair. The driver and HAProxy stay in the root namespace and reach every host over the bridge. A
 * host is cut off from all the others (nodes, etcd, HAProxy, the driver) by taking its veth's bridge end down, and
 * joined again by bringing it up.
 *
 * <p>Every name carries the lab's {@code tag} ({@code gl<tag>-n1}, {@code gl<tag>-br}), so {@code lab down} finds what
 * a killed lab left behind by the prefix {@value #PREFIX}.
 */
final class LabNetwork {

    static final String PREFIX = "gl";
    /** Every name a lab gives: its namespaces, its bridge, the root ends of its veth pairs and their inner ends. */
    private static final String NAMES = "gl[0-9a-f]{4}(-br|-[ne][0-9]+|[ne][0-9]+i?)";
    private static final String SUBNET = "10.201.";

    private final LabHost.Programs programs;
    private final String tag;
    private final int subnet;
    private final List<String> namespaces = new ArrayList<>();
    private final List<String> links = new ArrayList<>();
    private boolean bridgeMade;

    private LabNetwork(LabHost.Programs programs, String tag, int subnet) {
        this.programs = programs;
        this.tag = tag;
        this.subnet = subnet;
    }

    /** A network of no hosts yet, on a subnet no interface of this machine uses. */
    static LabNetwork create(LabHost.Programs programs, String tag) {
        String addresses = LabHost.run(programs.ip().toString(), "-4", "-o", "addr", "show");
        for (int s = 1; s < 255; s++) {
            if (!addresses.contains(" " + SUBNET + s + ".")) {
                LabNetwork network = new LabNetwork(programs, tag, s);
                try {
                    network.makeBridge();
                } catch (RuntimeException e) {
                    network.destroy();
                    throw e;
                }
                return network;
            }
        }
        throw new IllegalStateException("no free subnet 10.201.S.0/24 for the lab (every one is in use)");
    }

    private void makeBridge() {
        String ip = programs.ip().toString();
        LabHost.run(ip, "link", "add", "name", bridge(), "type", "bridge");
        bridgeMade = true;
        LabHost.run(ip, "addr", "add", gateway() + "/24", "dev", bridge());
        LabHost.run(ip, "link", "set", bridge(), "up");
    }

    /** The subnet, as HAProxy and pg_hba want it: {@code 10.201.S.0/24}. */
    String cidr() {
        return SUBNET + subnet + ".0/24";
    }

    /** The bridge's address in the root namespace. */
    String gateway() {
        return SUBNET + subnet + ".1";
    }

    private String bridge() {
        return PREFIX + tag + "-br";
    }

    /** The namespace of host {@code name} ({@code n1}, {@code e2}). */
    String namespace(String name) {
        return PREFIX + tag + "-" + name;
    }

    /** The bridge end of host {@code name}'s veth pair, in the root namespace. */
    private String hostLink(String name) {
        return PREFIX + tag + name;
    }

    /** Adds host {@code name} at {@code 10.201.S.octet}; returns its address. */
    String addHost(String name, int octet) {
        String ip = programs.ip().toString();
        String ns = namespace(name);
        String address = SUBNET + subnet + "." + octet;
        LabHost.run(ip, "netns", "add", ns);
        namespaces.add(ns);
        String outside = hostLink(name);
        String inside = outside + "i";
        links.add(outside);
        LabHost.run(ip, "link", "add", outside, "type", "veth", "peer", "name", inside);
        LabHost.run(ip, "link", "set", inside, "netns", ns);
        LabHost.run(ip, "link", "set", outside, "master", bridge());
        LabHost.run(ip, "link", "set", outside, "up");
        LabHost.run(ip, "-n", ns, "link", "set", "lo", "up");
        LabHost.run(ip, "-n", ns, "addr", "add", address + "/24", "dev", inside);
        LabHost.run(ip, "-n", ns, "link", "set", inside, "up");
        LabHost.run(ip, "-n", ns, "route", "add", "default", "via", gateway());
        return address;
    }

    /** The prefix that runs a command in host {@code name}'s namespace. */
    List<String> in(String name) {
        return List.of(programs.ip().toString(), "netns", "exec", namespace(name));
    }

    /** Cuts host {@code name} off from every other host, HAProxy and the driver ({@code false}: joins it again). */
    void connect(String name, boolean up) {
        LabHost.run(programs.ip().toString(), "link", "set", hostLink(name), up ? "up" : "down");
    }

    /**
     * Drops what host {@code name} sends to {@code addresses} (a blackhole route in its namespace; {@code false}
     * removes it): a partial partition, since no connection either way gets an answer through it.
     */
    void blackhole(String name, List<String> addresses, boolean on) {
        for (String address : addresses) {
            List<String> command = List.of(programs.ip().toString(), "-n", namespace(name), "route", on ? "add" : "del",
                    "blackhole", address + "/32");
            if (on) {
                LabHost.run(command.toArray(String[]::new));
            } else {
                LabHost.runQuietly(command.toArray(String[]::new));
            }
        }
    }

    /** Removes every namespace and the bridge (their veth pairs go with them). Idempotent. */
    void destroy() {
        String ip = programs.ip().toString();
        for (String ns : namespaces) {
            LabHost.runQuietly(ip, "netns", "delete", ns);
        }
        namespaces.clear();
        for (String link : links) {
            LabHost.runQuietly(ip, "link", "delete", link);
        }
        links.clear();
        if (bridgeMade) {
            LabHost.runQuietly(ip, "link", "delete", bridge());
            bridgeMade = false;
        }
    }

    /**
     * Removes what labs killed before they could tear down left: every namespace and link named with the prefix.
     * Returns what it removed.
     */
    static List<String> removeLeftovers(LabHost.Programs programs) {
        String ip = programs.ip().toString();
        List<String> removed = new ArrayList<>();
        for (String line : LabHost.run(ip, "netns", "list").split("\n")) {
            String ns = line.strip().split("\\s+")[0];
            if (ns.matches(NAMES)) {
                LabHost.runQuietly(ip, "netns", "delete", ns);
                removed.add("namespace " + ns);
            }
        }
        for (String line : LabHost.run(ip, "-o", "link", "show").split("\n")) {
            String[] parts = line.split(":\\s+");
            if (parts.length > 1) {
                String link = parts[1].split("@")[0].strip();
                if (link.matches(NAMES)) {
                    LabHost.runQuietly(ip, "link", "delete", link);
                    removed.add("link " + link);
                }
            }
        }
        return removed;
    }
}
