package dev.gauntlet.sql.adversity;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The variables a command disruption's commands see, besides the driver's own environment: which disruption and
 * step, its phase and planned times, and the target's servers. Planned times are seconds after the run's start as the
 * plan places them (a phase {@code until: recovered} that ends early moves later ones up; the variables say the plan).
 */
public final class CommandEnvironment {

    /** The disruption's name in results, e.g. {@code restart-leader} or {@code pod-kill#2}. */
    public static final String DISRUPTION = "GAUNTLET_DISRUPTION";
    /** {@code start}, {@code stop} or {@code undo}. */
    public static final String STEP = "GAUNTLET_STEP";
    public static final String PHASE = "GAUNTLET_PHASE";
    /** Seconds after the run's start, as planned (decimal, e.g. {@code 90} or {@code 92.5}). */
    public static final String PLANNED_START = "GAUNTLET_PLANNED_START";
    /** Seconds after the run's start, as planned: the start plus the length; the start for an event. */
    public static final String PLANNED_END = "GAUNTLET_PLANNED_END";
    /** The length in seconds, 0 for an event. */
    public static final String LENGTH = "GAUNTLET_LENGTH";
    /** Every server of the target, {@code host:port} comma-separated, in the URL's order (the embedded: primary first). */
    public static final String HOSTS = "GAUNTLET_HOSTS";
    /** The first server's host and port. */
    public static final String HOST = "GAUNTLET_HOST";
    public static final String PORT = "GAUNTLET_PORT";
    /** The database the workload runs on. */
    public static final String DATABASE = "GAUNTLET_DATABASE";

    /** Every variable Gauntlet sets for a command. */
    public static final List<String> NAMES = List.of(DISRUPTION, STEP, PHASE, PLANNED_START, PLANNED_END, LENGTH,
            HOSTS, HOST, PORT, DATABASE);

    private CommandEnvironment() {
    }

    /**
     * The variables for {@code step} of {@code disruption}; without {@code hosts} (the embedded servers before they
     * start) the target's variables are left out.
     */
    public static Map<String, String> of(ScheduledDisruption disruption, String step, TargetHosts hosts) {
        Map<String, String> env = new LinkedHashMap<>();
        Duration length = disruption.length() == null ? Duration.ZERO : disruption.length();
        env.put(DISRUPTION, disruption.name());
        env.put(STEP, step);
        env.put(PHASE, disruption.phase());
        env.put(PLANNED_START, seconds(disruption.at()));
        env.put(PLANNED_END, seconds(disruption.at().plus(length)));
        env.put(LENGTH, seconds(length));
        if (hosts != null) {
            env.put(HOSTS, hosts.joined());
            env.put(HOST, hosts.hosts().get(0).host());
            env.put(PORT, Integer.toString(hosts.hosts().get(0).port()));
            env.put(DATABASE, hosts.database());
        }
        return env;
    }

    private static String seconds(Duration d) {
        long millis = d.toMillis();
        return millis % 1000 == 0 ? Long.toString(millis / 1000)
                : String.format(Locale.ROOT, "%.3f", millis / 1000.0).replaceAll("0+$", "");
    }
}
