package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.result.Durations;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A plan's schedule as {@code run --plan FILE --dry-run} prints it: every phase with its planned start and end, every
 * disruption with its phase, planned start and end and what it does; for a command, each command it will run, its
 * time limit, directory and environment. Nothing is started or connected to.
 */
public final class ScheduleListing {

    private ScheduleListing() {
    }

    /**
     * @param hosts     the target's servers, or null for the embedded ones (not started: their ports are unknown)
     * @param directory where commands run
     */
    public static void write(AdversityPlan plan, String file, List<ScheduledDisruption> schedule, TargetHosts hosts,
                             Path directory, PrintStream out) {
        out.printf(Locale.ROOT, "Plan %s (%s): %d phases, %s, %d disruptions. Dry run: nothing is started or "
                + "connected to.%n", plan.name(), file, plan.phases().size(), time(plan.length()),
                schedule.size());
        out.println("Target: " + (hosts != null ? hosts.joined() + (hosts.database().isEmpty() ? ""
                : ", database " + hosts.database()) : "the embedded servers (no --url), standby " + plan.standby().label()
                + "; their hosts and ports are known once they start"));
        out.println("Phases (planned times from the run's start; a phase until: recovered may end early and move "
                + "the later ones up):");
        Duration at = Duration.ZERO;
        for (PlanPhase p : plan.phases()) {
            Duration end = at.plus(p.length());
            out.printf(Locale.ROOT, "  %-8s %-8s %s%s%n", time(at), time(end), p.name(),
                    !p.measured() ? " (not measured)" : p.untilRecovered() ? " (until recovered, at most "
                            + time(p.length()) + ")" : "");
            at = end;
        }
        out.println(schedule.isEmpty() ? "Disruptions: none" : "Disruptions:");
        for (ScheduledDisruption d : schedule) {
            DisruptionKind kind = d.spec().kind();
            String span = time(d.at()) + (d.length() == null ? " (runs to completion)"
                    : " to " + time(d.at().plus(d.length())));
            out.printf(Locale.ROOT, "  %s: %s in phase %s, %s%n", d.name(), kind.label(), d.phase(), span);
            if (kind != DisruptionKind.COMMAND) {
                out.println("    " + d.spec().describe());
                if (kind.need() == DisruptionKind.Need.TOXIPROXY) {
                    out.println("    on:   " + servers(d.spec().listOption("hosts"), hosts, plan.standby()));
                }
                continue;
            }
            String limit = "within " + time(d.spec().durationOption("timeout"));
            for (String step : List.of("start", "stop", "undo")) {
                String command = d.spec().option(step);
                if (!command.isBlank()) {
                    out.printf(Locale.ROOT, "    %-5s (%s%s): %s%n", step, limit, when(step, d),
                            CommandDisruption.oneLine(command));
                }
            }
            out.println("    in:   " + (directory != null ? directory : Path.of("").toAbsolutePath()));
            Map<String, String> env = CommandEnvironment.of(d, "start", hosts);
            env.put(CommandEnvironment.STEP, "start|stop|undo");
            out.println("    env:  " + env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(" ")) + (hosts == null ? " (target variables once the servers start)"
                    : ""));
        }
    }

    /** The servers a network fault acts on ({@code chosen}, none: every one), as the target names them. */
    private static String servers(List<String> chosen, TargetHosts hosts, Standby standby) {
        if (hosts != null) {
            return chosen.isEmpty() ? "every server: " + hosts.named() : hosts.named(hosts.positions(chosen));
        }
        List<String> embedded = standby == Standby.NONE ? List.of("n1 (the primary)")
                : List.of("n1 (the primary at start)", "n2 (the standby at start)");
        if (chosen.isEmpty()) {
            return "every server: " + String.join(", ", embedded);
        }
        return chosen.stream().map(TargetHosts::positionNamed).sorted().distinct().map(embedded::get)
                .collect(Collectors.joining(", "));
    }

    private static String time(Duration d) {
        return d.isZero() ? "0s" : Durations.format(d);
    }

    private static String when(String step, ScheduledDisruption d) {
        return switch (step) {
            case "start" -> ", at " + time(d.at());
            case "stop" -> ", at " + time(d.at().plus(d.length()));
            default -> ", at the end of the run";
        };
    }
}
