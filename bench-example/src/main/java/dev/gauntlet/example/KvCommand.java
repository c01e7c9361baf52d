package dev.gauntlet.example;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.core.cli.VersionProvider;
import dev.gauntlet.sql.cli.SqlWorkloadCommand;
import picocli.CommandLine.Command;

/**
 * {@code bench-kv}: the example workload of {@code docs/adding-a-workload.md}. Its init, run, check and drop are the
 * generic ones of {@link SqlWorkloadCommand}, driven by {@link KvDefinition}; without a command it runs the default
 * job on the embedded PostgreSQL.
 */
@Command(name = "bench-kv", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"A key-value read/write mix over JDBC: gets and puts of single keys, chosen uniformly.",
                "Without a command: the default job, 'bench-kv run " + KvCommand.DEFAULT_JOB_TEXT + "'."},
        footer = {"", "Typical use: init --keys 100000, then run --read-percent 50 --duration 60s, then check.",
                "", "Examples:",
                "  bench-kv                # the default job: run " + KvCommand.DEFAULT_JOB_TEXT
                        + " on the embedded PostgreSQL",
                "  bench-kv run --help     # every option of a run",
                "  bench-kv run --init --url jdbc:postgresql://host:5432/db --user bench --read-percent 50"})
public final class KvCommand extends SqlWorkloadCommand {

    static final String DEFAULT_JOB_TEXT = "--init --duration 20s --prime auto:45s";

    public KvCommand() {
        super(new KvDefinition(), DEFAULT_JOB_TEXT);
    }

    public static void main(String[] args) {
        GauntletCommandLine.main(new KvCommand(), args);
    }
}
