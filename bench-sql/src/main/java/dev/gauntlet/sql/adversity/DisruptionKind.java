package dev.gauntlet.sql.adversity;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every kind of disruption a plan can name, with what it needs of the target, the options it takes, whether it needs
 * a length, and whether it is a fault that cannot coexist with another fault (two faults at once would make neither
 * readable, and some cannot be combined at all: a restart during a disk stall). Operational stress (an index build,
 * a backup, a CDC consumer) overlaps anything.
 */
public enum DisruptionKind {

    CREATE_INDEX("create-index", Need.SQL, false, Length.NONE, null,
            Map.of("table", "", "columns", ""),
            "CREATE INDEX CONCURRENTLY on TABLE (COLUMNS), then its DROP"),
    BACKUP("backup", Need.SERVER_FILES, false, Length.NONE, null, Map.of(),
            "a full base backup of the primary (pg_backup_start, a copy of the data directory, pg_backup_stop)"),
    CDC("cdc", Need.SQL, false, Length.REQUIRED, null, Map.of("plugin", "test_decoding"),
            "a consumer of a logical replication slot through pgjdbc's replication API (slot dropped after)"),
    CHECKPOINT_STORM("checkpoint-storm", Need.SQL, false, Length.REQUIRED, null, Map.of("every", "1s"),
            "CHECKPOINT every EVERY"),
    VACUUM_FULL("vacuum-full", Need.SQL, false, Length.NONE, null, Map.of("table", ""),
            "VACUUM FULL of TABLE (an exclusive lock while it rewrites)"),
    DISK_STALL("disk-stall", Need.SERVER_PROCESSES, true, Length.REQUIRED, null, Map.of("node", "leader"),
            "the primary's writes frozen (its processes stopped with SIGSTOP, resumed with SIGCONT); on a cluster, "
                    + "NODE's PostgreSQL stopped so"),
    LATENCY("latency", Need.TOXIPROXY, true, Length.REQUIRED, null,
            Map.of("latency", "100ms", "jitter", "0ms", "share", "1", "hosts", ""), Set.of("hosts"),
            "LATENCY (+/- JITTER) added each way between the workload and HOSTS for SHARE of the connections"),
    BANDWIDTH("bandwidth", Need.TOXIPROXY, true, Length.REQUIRED, null,
            Map.of("rate", "64", "share", "1", "hosts", ""), Set.of("hosts"),
            "the replies of HOSTS limited to RATE KB/s for SHARE of the connections"),
    BLACKHOLE("blackhole", Need.TOXIPROXY, true, Length.REQUIRED, null, Map.of("share", "1", "hosts", ""),
            Set.of("hosts"), "a network partition: data between the workload and HOSTS dropped for SHARE of the "
                    + "connections (1 = full partition, less = partial)"),
    RESET("reset", Need.TOXIPROXY, true, Length.REQUIRED, null, Map.of("share", "1", "hosts", ""),
            Set.of("hosts"), "connections to HOSTS reset (TCP RST) for SHARE of the connections"),
    RESTART_FAST("restart-fast", Need.SERVER_PROCESSES, true, Length.NONE, Duration.ofSeconds(15),
            Map.of("node", "leader"), "pg_ctl restart -m fast; on a cluster, NODE's PostgreSQL restarted by its Patroni"),
    RESTART_IMMEDIATE("restart-immediate", Need.SERVER_PROCESSES, true, Length.NONE, Duration.ofSeconds(15),
            Map.of(), "pg_ctl restart -m immediate (crash recovery on start)"),
    KILL_BACKEND("kill-backend", Need.SERVER_PROCESSES, true, Length.NONE, Duration.ofSeconds(10), Map.of(),
            "kill -9 of one workload backend: the postmaster resets every session"),
    TERMINATE_SESSIONS("terminate-sessions", Need.SQL, true, Length.NONE, Duration.ofSeconds(5), Map.of(),
            "pg_terminate_backend of every workload session"),
    ZONE_OUTAGE("zone-outage", Need.STANDBY, true, Length.REQUIRED, null,
            Map.of("promote-after", "10s", "hold-standby", "0s"),
            "the primary stopped for LENGTH (immediate shutdown); the standby promoted after PROMOTE-AFTER; "
                    + "the old primary rebuilt as the new standby when it returns. HOLD-STANDBY > 0: the primary's "
                    + "WAL sender to the standby is first held (SIGSTOP) that long, so an asynchronous standby falls behind and "
                    + "the failover loses the last commits (a synchronous one holds the commits back instead)"),
    NODE_KILL("node-kill", Need.CLUSTER, true, Length.OPTIONAL, Duration.ofSeconds(30),
            Map.of("node", "leader", "patroni", "false", "hold-replication", "0s"),
            "NODE's PostgreSQL killed at once (SIGKILL to the postmaster and every process under it); PATRONI true: its "
                    + "Patroni too, as a machine crash, booted again after LENGTH (never, without a length). "
                    + "HOLD-REPLICATION > 0: its WAL senders are first held (SIGSTOP) that long, so asynchronous "
                    + "replicas fall behind before it dies"),
    NODE_PARTITION("node-partition", Need.CLUSTER, true, Length.REQUIRED, null, Map.of("node", "leader", "from", "all"),
            "NODE cut off from FROM for LENGTH: all (its link down: nodes, etcd, HAProxy and the driver), or a list of "
                    + "dcs, nodes, clients (a partial partition: what it sends there is dropped)"),
    DCS_OUTAGE("dcs-outage", Need.CLUSTER, true, Length.REQUIRED, null, Map.of(),
            "a majority of the etcd members cut off for LENGTH: no quorum, so Patroni's leader demotes (no writes)"),
    SWITCHOVER("switchover", Need.CLUSTER, true, Length.NONE, Duration.ofSeconds(20), Map.of("to", ""),
            Set.of("to"), "a planned switchover asked of Patroni, to TO (a node, sync-standby or replica; "
                    + "Patroni's choice when not given)"),
    ROLLING_RESTART("rolling-restart", Need.CLUSTER, true, Length.NONE, Duration.ofSeconds(120), Map.of(),
            "every member's PostgreSQL restarted in turn through Patroni: the replicas first, then a switchover, "
                    + "then the old leader (a rolling upgrade's steps)"),
    COMMAND("command", Need.DRIVER_SHELL, true, Length.OPTIONAL, Duration.ofSeconds(15),
            Map.of("start", "", "stop", "", "undo", "", "timeout", "60s"), Set.of("stop", "undo"),
            "the user's own commands through sh on the driver's machine: START at the planned time, STOP after "
                    + "LENGTH (a STOP needs a LENGTH), UNDO at the end of the run; each within TIMEOUT");

    /** What a disruption needs of the system under test. */
    public enum Need {
        /** Only SQL: works against any PostgreSQL given by --url. */
        SQL("any server"),
        /** The server's processes (signals, pg_ctl): an embedded server. */
        SERVER_PROCESSES("the server's processes, which only the embedded server gives"),
        /** The server's files: an embedded server. */
        SERVER_FILES("the server's data directory, which only the embedded server gives"),
        /** A standby to fail over to: the embedded topology with standby sync or async. */
        STANDBY("a standby to fail over to (the embedded topology with standby: sync or async)"),
        /** Toxiproxy between the workload and the servers: any target with a jdbc:postgresql URL. */
        TOXIPROXY("Toxiproxy between the workload and the servers"),
        /** A shell on the driver's machine, for the user's own commands: any target. */
        DRIVER_SHELL("a shell on the driver's machine"),
        /** A cluster Gauntlet starts and whose nodes it reaches: {@code cluster: patroni}. */
        CLUSTER("a cluster Gauntlet starts itself (cluster: patroni in the plan, or --cluster patroni)");

        private final String description;

        Need(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    /** Whether the plan gives a disruption of this kind a length: never, always, or as it chooses. */
    public enum Length { NONE, REQUIRED, OPTIONAL }

    private final String label;
    private final Need need;
    private final boolean exclusive;
    private final Length length;
    private final Duration footprint;
    private final Map<String, String> options;
    private final Set<String> optional;
    private final String description;

    DisruptionKind(String label, Need need, boolean exclusive, Length length, Duration footprint,
                   Map<String, String> options, String description) {
        this(label, need, exclusive, length, footprint, options, Set.of(), description);
    }

    DisruptionKind(String label, Need need, boolean exclusive, Length length, Duration footprint,
                   Map<String, String> options, Set<String> optional, String description) {
        this.label = label;
        this.need = need;
        this.exclusive = exclusive;
        this.length = length;
        this.footprint = footprint;
        this.options = Map.copyOf(options);
        this.optional = Set.copyOf(optional);
        this.description = description;
    }

    /** Its name in plans and results. */
    public String label() {
        return label;
    }

    public Need need() {
        return need;
    }

    /** True for a fault that must not overlap another fault. */
    public boolean exclusive() {
        return exclusive;
    }

    /** Whether a disruption of this kind must have a length. */
    public boolean needsLength() {
        return length == Length.REQUIRED;
    }

    /** Whether a disruption of this kind may have a length. */
    public boolean takesLength() {
        return length != Length.NONE;
    }

    /**
     * How long an event of this kind (no length given) keeps the system disturbed, for the overlap check: a restart takes
     * its server down for seconds after it was asked. Null for kinds with a length or no footprint.
     */
    public Duration footprint() {
        return footprint;
    }

    /** Its options and their defaults; an empty default means the option is required, unless it is optional. */
    public Map<String, String> options() {
        return options;
    }

    /** Whether an option with no default may be left out ({@code stop} and {@code undo} of a command). */
    public boolean optional(String option) {
        return optional.contains(option);
    }

    public String description() {
        return description;
    }

    public static Optional<DisruptionKind> byLabel(String label) {
        return Arrays.stream(values()).filter(k -> k.label.equals(label)).findFirst();
    }

    /** Every kind's label, for messages. */
    public static String labels() {
        return Arrays.stream(values()).map(DisruptionKind::label).collect(Collectors.joining(", "));
    }

    /** The kinds that need {@code need}. */
    /** Whether a cluster Gauntlet starts takes this kind aimed at one of its nodes ({@code node}). */
    public boolean aimsAtANode() {
        return options.containsKey("node");
    }

    public static Set<DisruptionKind> needing(Need need) {
        return Arrays.stream(values()).filter(k -> k.need == need).collect(Collectors.toUnmodifiableSet());
    }
}
