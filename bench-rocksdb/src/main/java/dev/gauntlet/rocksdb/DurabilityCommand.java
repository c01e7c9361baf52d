package dev.gauntlet.rocksdb;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.rocksdb.durability.CrashTrial;
import dev.gauntlet.rocksdb.durability.DurabilityCase;
import dev.gauntlet.rocksdb.fill.FillRun;
import dev.gauntlet.rocksdb.fill.RocksDbStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code durability}: what a process kill costs with manual WAL flush, with and without FlushWAL. */
@Command(name = "durability", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Demonstrates manual_wal_flush's durability trade-off: for each case a child JVM writes --num "
                + "keys (fillseq, sync=false), says so, and is killed with SIGKILL; the database is then reopened "
                + "and its keys counted.",
                "Prints a Markdown table. Fails (exit 1) if a case that must keep every key lost any."},
        footer = {"", "Examples:",
                "  bench-rocksdb durability                                # 100,000 keys per case, in a temp directory",
                "  bench-rocksdb durability --num 10000 --out durability.md   # the table also goes to durability.md"})
public final class DurabilityCommand implements Callable<Integer> {

    @Option(names = "--num", paramLabel = "N", defaultValue = "100000",
            description = "Keys each child writes (default: ${DEFAULT-VALUE}; RocksDB's WAL buffer holds at most "
                    + "writable_file_max_buffer_size, 1 MiB, about 8,000 puts of 16+100 bytes).")
    long num;

    @Option(names = "--db", paramLabel = "DIR", description = "Where the databases go (default: a new directory under java.io.tmpdir).")
    Path db;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the table to this Markdown file.")
    Path out;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (num < 1) {
            throw new BadInputException("--num must be at least 1 (got " + num + ")");
        }
        Path root = db != null ? db : Files.createTempDirectory("gauntlet-durability-");
        List<CrashTrial.Outcome> outcomes = new ArrayList<>();
        try {
            for (DurabilityCase c : DurabilityCase.values()) {
                Path dir = root.resolve(c.name().toLowerCase(Locale.ROOT));
                outcomes.add(CrashTrial.run(c, num, dir));
                RocksDbStore.delete(dir);
            }
        } finally {
            if (db == null) {
                RocksDbStore.delete(root);
            }
        }
        String table = table(outcomes);
        System.out.print(table);
        if (out != null) {
            Files.writeString(out, table);
        }
        for (CrashTrial.Outcome o : outcomes) {
            if (o.writerCase() != DurabilityCase.MANUAL_NO_FLUSH && o.lost() != 0) {
                throw new RunFailedException(o.writerCase().description() + " lost " + o.lost() + " of " + o.written()
                        + " keys to a process kill");
            }
        }
        return ExitCode.OK;
    }

    static String table(List<CrashTrial.Outcome> outcomes) {
        StringBuilder md = new StringBuilder();
        md.append("RocksDB ").append(FillRun.rocksDbVersion())
                .append(", fillseq of 16-byte keys and 100-byte values, sync=false, child JVM killed with SIGKILL after its last put.\n\n");
        md.append("| writer | keys written | keys after reopen | lost | lost % |\n|---|---:|---:|---:|---:|\n");
        for (CrashTrial.Outcome o : outcomes) {
            md.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %.2f%% |%n", o.writerCase().description(),
                    o.written(), o.survived(), o.lost(), 100.0 * o.lost() / o.written()));
        }
        return md.toString();
    }
}
