package dev.gauntlet.rocksdb;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.core.cli.WorkloadCommand;
import picocli.CommandLine.Command;

/** The {@code bench-rocksdb} command line. */
@Command(name = "bench-rocksdb", mixinStandardHelpOptions = true,
        versionProvider = dev.gauntlet.core.cli.VersionProvider.class,
        description = {"RocksDB WAL experiments: db_bench-style fills and JMH benchmarks of manual_wal_flush, sync and fill order.",
                "Without a command: the default job, 'bench-rocksdb run' (seed 001's question answered in about a minute)."},
        subcommands = {AnswerCommand.class, FillCommand.class, DurabilityCommand.class, FsyncLatencyCommand.class, JmhTableCommand.class},
        footer = {"", "Examples:", "  bench-rocksdb", "  bench-rocksdb fill --benchmarks fillseq,fillrandom --manual-wal-flush --repeat 5",
                "  bench-rocksdb durability --num 100000", "",
                "JMH benchmarks: java -jar bench-rocksdb/target/bench-rocksdb-benchmarks.jar FillBenchmark -rf json",
                "Results: report render DIR | report compare A B | report merge DIR... (see report --help)."})
public final class RocksDbCommand extends WorkloadCommand {

    public static void main(String[] args) {
        GauntletCommandLine.main(new RocksDbCommand(), args);
    }
}
