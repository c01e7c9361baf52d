package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.run.Disruption;
import dev.gauntlet.core.run.DisruptionPlan;
import java.nio.file.Path;
import java.util.List;

/** Makes the runner's disruptions from a schedule, each acting on the system under test. */
public final class Disruptions {

    private Disruptions() {
    }

    public static List<DisruptionPlan> plans(List<ScheduledDisruption> schedule, SystemUnderTest system) {
        return plans(schedule, system, null);
    }

    /** @param directory where command disruptions' commands run (the plan file's directory); null: the current one */
    public static List<DisruptionPlan> plans(List<ScheduledDisruption> schedule, SystemUnderTest system,
                                             Path directory) {
        return schedule.stream().map(s -> new DisruptionPlan(of(s, system, directory), s.at(), s.length())).toList();
    }

    static Disruption of(ScheduledDisruption s, SystemUnderTest system, Path directory) {
        DisruptionSpec spec = s.spec();
        String name = s.name();
        return switch (spec.kind()) {
            case CREATE_INDEX -> new CreateIndex(name, system, spec.option("table"), spec.option("columns"));
            case BACKUP -> new Backup(name, system);
            case CDC -> new CdcConsumer(name, system, spec.option("plugin"));
            case CHECKPOINT_STORM -> new CheckpointStorm(name, system, spec.durationOption("every"));
            case VACUUM_FULL -> new VacuumFull(name, system, spec.option("table"));
            case DISK_STALL -> system.cluster().isPresent() ? new NodeStall(name, system, spec.option("node"))
                    : new DiskStall(name, system);
            case LATENCY, BANDWIDTH, BLACKHOLE, RESET -> new NetworkFault(name, system, spec);
            case RESTART_FAST -> system.cluster().isPresent() ? new NodeRestart(name, system, spec.option("node"))
                    : new Restart(name, system, false);
            case RESTART_IMMEDIATE -> new Restart(name, system, true);
            case KILL_BACKEND -> new KillBackend(name, system);
            case TERMINATE_SESSIONS -> new TerminateSessions(name, system);
            case ZONE_OUTAGE -> new ZoneOutage(name, system, spec.durationOption("promote-after"),
                    spec.durationOption("hold-standby"));
            case NODE_KILL -> new NodeKill(name, system, spec.option("node"), "true".equals(spec.option("patroni")),
                    spec.durationOption("hold-replication"));
            case NODE_PARTITION -> new NodePartition(name, system, spec.option("node"),
                    dev.gauntlet.sql.lab.NodeFaults.Side.parse(spec.option("from")));
            case DCS_OUTAGE -> new DcsOutage(name, system);
            case SWITCHOVER -> new Switchover(name, system, spec.option("to"));
            case ROLLING_RESTART -> new RollingRestart(name, system);
            case COMMAND -> new CommandDisruption(s, system, directory);
        };
    }
}
