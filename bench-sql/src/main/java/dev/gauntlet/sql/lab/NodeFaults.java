package dev.gauntlet.sql.lab;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What can be done to a lab's nodes and its consensus store, as the faults of a cluster: a node's PostgreSQL killed,
 * the node's machine crashed and booted, the node cut off (from everything, or from some of its peers), a majority of
 * etcd stopped, a switchover or a restart asked of Patroni; and what a fault's record reports: which member a role
 * names now, how far each replica is behind, whether pg_rewind ran on a node.
 */
public final class NodeFaults {

    /** What a node can be cut off from. */
    public enum Side {
        /** The etcd members: Patroni's consensus store. */
        DCS("dcs"),
        /** The other PostgreSQL nodes (replication, pg_rewind, Patroni's REST calls to them). */
        NODES("nodes"),
        /** The root namespace: HAProxy's health checks and the workload's connections. */
        CLIENTS("clients");

        private final String label;

        Side(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        /** {@code all}, or a comma-separated list of {@code dcs}, {@code nodes}, {@code clients}. */
        public static Set<Side> parse(String text) {
            Set<Side> sides = EnumSet.noneOf(Side.class);
            for (String part : text.split(",")) {
                String p = part.trim().toLowerCase(Locale.ROOT);
                if (p.equals("all")) {
                    sides.addAll(EnumSet.allOf(Side.class));
                    continue;
                }
                sides.add(Stream.of(values()).filter(s -> s.label.equals(p)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("'" + part.trim() + "' is not a side: all, "
                                + "or a list of dcs, nodes, clients")));
            }
            if (sides.isEmpty()) {
                throw new IllegalArgumentException("name what to cut it from: all, or a list of dcs, nodes, clients");
            }
            return sides;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final PatroniCluster lab;

    NodeFaults(PatroniCluster lab) {
        this.lab = lab;
    }

    /**
     * The member a plan names: {@code leader}, {@code sync-standby} (the synchronous standby), {@code replica} (a
     * replica, the synchronous standby last) or a node's name ({@code n2}).
     */
    public String resolve(String which) {
        List<PatroniCluster.Member> members = lab.members();
        Optional<PatroniCluster.Member> m = switch (which) {
            case "leader" -> members.stream().filter(PatroniCluster.Member::leads).findFirst();
            case "sync-standby" -> members.stream().filter(x -> "sync_standby".equals(x.role())).findFirst();
            case "replica" -> members.stream().filter(x -> "replica".equals(x.role())).findFirst()
                    .or(() -> members.stream().filter(x -> "sync_standby".equals(x.role())).findFirst());
            default -> members.stream().filter(x -> x.name().equals(which)).findFirst();
        };
        return m.map(PatroniCluster.Member::name).orElseThrow(() -> new IllegalStateException("no member is "
                + which + " now (" + describe(members) + ")"));
    }

    /** The members in one line: {@code n1 leader running tl 2, n2 sync_standby streaming lag 0 B, ...}. */
    public static String describe(Collection<PatroniCluster.Member> members) {
        List<String> parts = new ArrayList<>();
        for (PatroniCluster.Member m : members) {
            parts.add(m.name() + " " + m.role() + " " + m.state() + (m.timeline() == null ? "" : " tl " + m.timeline())
                    + (m.lagBytes() == null || m.leads() ? "" : " lag " + bytes(m.lagBytes())));
        }
        return String.join(", ", parts);
    }

    static String bytes(long b) {
        return b < 1024 ? b + " B" : b < 1 << 20 ? String.format(Locale.ROOT, "%.1f kB", b / 1024.0)
                : String.format(Locale.ROOT, "%.1f MB", b / (double) (1 << 20));
    }

    /** The node's PostgreSQL killed at once: its postmaster and every process under it, SIGKILL. Returns how many. */
    public int killPostgres(String node) {
        ProcessHandle postmaster = postmaster(node).orElseThrow(() -> new IllegalStateException("PostgreSQL of "
                + node + " is not running (no postmaster.pid)"));
        List<ProcessHandle> all = new ArrayList<>(postmaster.descendants().toList());
        all.add(0, postmaster);
        all.forEach(ProcessHandle::destroyForcibly);
        return all.size();
    }

    /** The PIDs of the node's PostgreSQL: its postmaster and every process under it. */
    public List<Long> postgresProcesses(String node) {
        ProcessHandle postmaster = postmaster(node).orElseThrow(() -> new IllegalStateException("PostgreSQL of "
                + node + " is not running (no postmaster.pid)"));
        List<Long> pids = new ArrayList<>();
        pids.add(postmaster.pid());
        postmaster.descendants().forEach(p -> pids.add(p.pid()));
        return pids;
    }

    /** The node's machine crashed: its Patroni and PostgreSQL killed at once. {@link #boot} brings it back. */
    public void crash(String node) {
        Optional<ProcessHandle> postmaster = postmaster(node);
        lab.killPatroni(node);
        // PostgreSQL runs under Patroni, but a postmaster that outlived it (re-parented) would keep the port.
        postmaster.ifPresent(p -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        });
    }

    /** The crashed node's Patroni started again, on the data directory it left. */
    public void boot(String node) {
        lab.startPatroni(node);
    }

    /** Cuts the node off from {@code sides} (all of them: its link down), or joins it again with {@code on} false. */
    public void cut(String node, Set<Side> sides, boolean on) {
        if (!lab.nodes().containsKey(node)) {
            throw new IllegalArgumentException("no node " + node + " in this lab");
        }
        if (sides.containsAll(EnumSet.allOf(Side.class))) {
            lab.network().connect(node, !on);
            return;
        }
        List<String> addresses = new ArrayList<>();
        if (sides.contains(Side.DCS)) {
            addresses.addAll(lab.etcdMembers().values());
        }
        if (sides.contains(Side.NODES)) {
            lab.nodes().forEach((n, a) -> {
                if (!n.equals(node)) {
                    addresses.add(a);
                }
            });
        }
        if (sides.contains(Side.CLIENTS)) {
            addresses.add(lab.network().gateway());
        }
        lab.network().blackhole(node, addresses, on);
    }

    /** The etcd members a majority outage stops: all but a minority, so the store has no quorum. */
    public List<String> dcsMajority() {
        List<String> members = new ArrayList<>(lab.etcdMembers().keySet());
        return members.subList(0, members.size() / 2 + 1);
    }

    /** Cuts {@code members} of etcd off from everything ({@code false}: joins them again). */
    public void cutDcs(List<String> members, boolean on) {
        for (String m : members) {
            lab.network().connect(m, !on);
        }
    }

    /** Asks Patroni for a switchover from {@code leader} (to {@code candidate}, or one Patroni picks when null). */
    public String switchover(String leader, String candidate) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("leader", leader);
        if (candidate != null) {
            body.put("candidate", candidate);
        }
        return answer(leader, "POST", "/switchover", body, "switchover");
    }

    /** Asks the node's Patroni to restart its PostgreSQL. */
    public String restart(String node) {
        return answer(node, "POST", "/restart", Map.of(), "restart of " + node);
    }

    private String answer(String node, String method, String path, Map<String, String> body, String what) {
        String json;
        try {
            json = JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        HttpResponse<String> r = lab.patroniApi(node, method, path, json);
        String text = r.body() == null ? "" : r.body().strip();
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException("Patroni refused the " + what + " (HTTP " + r.statusCode() + "): " + text);
        }
        return text;
    }

    /** The PIDs of the node's WAL senders (its processes that stream to replicas). */
    public List<Long> walSenders(String node) throws SQLException {
        try (Connection c = lab.connectNode(node); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pid FROM pg_stat_replication")) {
            List<Long> pids = new ArrayList<>();
            while (rs.next()) {
                pids.add(rs.getLong(1));
            }
            return pids;
        }
    }

    /**
     * How far each other node's received WAL is behind {@code leader}'s written WAL, in bytes, as the servers say
     * (a node that does not answer is left out).
     */
    public Map<String, Long> behind(String leader) {
        Map<String, Long> behind = new LinkedHashMap<>();
        String written;
        try (Connection c = lab.connectNode(leader); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn()")) {
            rs.next();
            written = rs.getString(1);
        } catch (SQLException e) {
            return behind;
        }
        for (String node : lab.nodes().keySet().stream().sorted().toList()) {
            if (node.equals(leader)) {
                continue;
            }
            try (Connection c = lab.connectNode(node); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT pg_wal_lsn_diff('" + written + "'::pg_lsn, "
                         + "pg_last_wal_receive_lsn())::bigint")) {
                if (rs.next()) {
                    behind.put(node, rs.getLong(1));
                }
            } catch (SQLException e) {
                // not answering: left out
            }
        }
        return behind;
    }

    /**
     * One pg_rewind Patroni ran on a node: its exit code, and whether Patroni then removed the node's data directory to
     * clone it again ({@code remove_data_directory_on_rewind_failure}: a rewind that failed, e.g. for want of WAL the
     * node no longer kept).
     */
    public record Rewind(int exitCode, boolean recloned) {
        @Override
        public String toString() {
            return "exit " + exitCode + (recloned ? ", then its data directory removed and cloned again" : "");
        }
    }

    /**
     * Every pg_rewind Patroni's log of {@code node} says it ran ("pg_rewind exit code=N"), in order, with the removal
     * of the data directory that followed a failed one: what a fault's record compares before and after.
     */
    public List<Rewind> rewinds(String node) {
        Path log = lab.directory().resolve(node).resolve("log").resolve("patroni.log");
        if (!Files.exists(log)) {
            return List.of();
        }
        try (Stream<String> lines = Files.lines(log)) {
            return rewinds(lines);
        } catch (IOException | java.io.UncheckedIOException e) {
            return List.of();
        }
    }

    /** The rewinds in the lines of a Patroni log, in order. */
    static List<Rewind> rewinds(Stream<String> patroniLog) {
        List<Rewind> rewinds = new ArrayList<>();
        patroniLog.forEach(l -> {
            int at = l.indexOf("pg_rewind exit code=");
            if (at >= 0) {
                String code = l.substring(at + "pg_rewind exit code=".length()).strip();
                int exit;
                try {
                    exit = Integer.parseInt(code);
                } catch (NumberFormatException e) {
                    exit = -1;
                }
                rewinds.add(new Rewind(exit, false));
            } else if (l.contains("remove_data_directory_on_") && l.contains("is set. removing")
                    && !rewinds.isEmpty()) {
                rewinds.set(rewinds.size() - 1, new Rewind(rewinds.get(rewinds.size() - 1).exitCode(), true));
            }
        });
        return rewinds;
    }

    /** The PID of the node's postmaster now, or 0 when it runs none. */
    public long postmasterPid(String node) {
        return postmaster(node).map(ProcessHandle::pid).orElse(0L);
    }

    private Optional<ProcessHandle> postmaster(String node) {
        Path pidFile = lab.directory().resolve(node).resolve("data").resolve("postmaster.pid");
        try {
            String first = Files.readAllLines(pidFile).get(0).strip();
            return ProcessHandle.of(Long.parseLong(first)).filter(ProcessHandle::isAlive);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
