package dev.gauntlet.core.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The top-level command of a workload jar. Subclasses carry the {@code @Command} annotation (name,
 * description, subcommands); given no subcommand, the command explains itself.
 */
public abstract class WorkloadCommand implements Runnable {

    @Spec
    protected CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
