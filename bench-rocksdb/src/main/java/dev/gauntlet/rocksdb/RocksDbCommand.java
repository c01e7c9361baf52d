package dev.gauntlet.rocksdb;

import dev.gauntlet.core.cli.GauntletCommandLine;
import picocli.CommandLine.Command;

/** The {@code bench-rocksdb} command line. */
@Command(name = "bench-rocksdb", mixinStandardHelpOptions = true,
        versionProvider = dev.gauntlet.core.cli.VersionProvider.class,
        description = "RocksDB WAL experiments: db_bench-style fills and JMH benchmarks of manual_wal_flush, sync and fill order.",
        footer = {"", "Results: report render DIR | report compare A B | report merge DIR... (see report --help)."})
public final class RocksDbCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        GauntletCommandLine.main(new RocksDbCommand(), args);
    }
}
