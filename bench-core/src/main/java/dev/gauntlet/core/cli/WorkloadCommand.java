package dev.gauntlet.core.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The top-level command of a workload jar. Subclasses carry the {@code @Command} annotation (name, description,
 * subcommands). Given no subcommand, the command runs its default job ({@link #defaultJob}: its {@code run}
 * subcommand with those arguments) or, when it has no {@code run}, explains itself.
 */
public abstract class WorkloadCommand implements Runnable, picocli.CommandLine.IExitCodeGenerator {

    @Spec
    protected CommandSpec spec;

    private int exitCode;
    private final java.util.List<String> defaultJob;

    /** A program whose default job is {@code run} with its defaults (or, without {@code run}, its --help). */
    protected WorkloadCommand() {
        this("");
    }

    /** @param defaultJob the arguments of {@code run} that make the default job, as typed: {@code --duration 30s} */
    protected WorkloadCommand(String defaultJob) {
        this.defaultJob = defaultJob.isBlank() ? java.util.List.of() : java.util.List.of(defaultJob.strip().split("\\s+"));
    }

    /** The arguments of {@code run} that make the default job. */
    protected final java.util.List<String> defaultJob() {
        return defaultJob;
    }

    /**
     * Adds commands made at run time (a SQL workload's generic init, run, check and drop) to the command line of this
     * program; called once by {@link GauntletCommandLine#create} before parsing. None by default.
     */
    protected void addCommands(picocli.CommandLine cli) {
    }

    @Override
    public void run() {
        if (!spec.commandLine().getSubcommands().containsKey("run")) { // no default job: explain the commands
            spec.commandLine().usage(System.out);
            return;
        }
        System.out.println("No command given: running the default job (" + String.join(" ", spec.name(), "run",
                String.join(" ", defaultJob())).strip() + "); " + spec.name() + " --help lists the commands.");
        exitCode = spec.commandLine().getSubcommands().get("run").execute(defaultJob().toArray(String[]::new));
    }

    @Override
    public int getExitCode() {
        return exitCode;
    }
}
