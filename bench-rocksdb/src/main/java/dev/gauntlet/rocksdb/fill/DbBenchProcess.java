package dev.gauntlet.rocksdb.fill;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.host.Executables;
import dev.gauntlet.core.host.HostCommand;
import dev.gauntlet.rocksdb.dbbench.DbBenchOutput;
import dev.gauntlet.rocksdb.dbbench.RunLine;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Runs RocksDB's own {@code db_bench} with the settings of a Gauntlet fill, one run per fresh database
 * directory, and reads its per-run line back. db_bench's threads each run the whole benchmark, so it is given
 * {@code num / threads} per thread to do the same total work (its threads then write overlapping key ranges,
 * where Gauntlet's split the range).
 */
public final class DbBenchProcess {

    private final Path executable;

    private DbBenchProcess(Path executable) {
        this.executable = executable;
    }

    /** {@code db_bench} from the PATH (or the path given), or a bad-input error naming how to get it. */
    public static DbBenchProcess locate(String command) {
        return find(command).map(DbBenchProcess::new).orElseThrow(() -> new BadInputException(
                "--compare-db-bench needs db_bench, and '" + command + "' is not an executable on the PATH; install it "
                        + "(Debian: apt-get install rocksdb-tools) or name it with --db-bench PATH"));
    }

    /** The executable {@code command} names: a path, or a name looked up on the PATH. */
    public static Optional<Path> find(String command) {
        if (command.contains(File.separator)) {
            Path p = Path.of(command);
            return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        return Executables.find(command);
    }

    public Path executable() {
        return executable;
    }

    /** The first line of {@code db_bench --version}, e.g. {@code db_bench version 7.8.3}. */
    public String version() {
        try {
            String out = run(List.of(executable.toString(), "--version"), 30);
            return out.lines().findFirst().orElse("db_bench").strip();
        } catch (IOException e) {
            return "db_bench (version unknown: " + e.getMessage() + ")";
        }
    }

    /** The db_bench command line for one run of {@code settings} in the fresh directory {@code dbDir}. */
    public List<String> command(FillSettings settings, Path dbDir, long seed) {
        List<String> c = new ArrayList<>();
        c.add(executable.toString());
        c.add("--benchmarks=" + settings.order().benchmark());
        c.add("--num=" + Math.max(1, settings.num() / settings.threads()));
        c.add("--threads=" + settings.threads());
        c.add("--key_size=" + settings.keySize());
        c.add("--value_size=" + settings.valueSize());
        c.add("--compression_type=" + settings.compression().dbBenchName());
        c.add("--compression_ratio=" + String.format(Locale.ROOT, "%s", settings.compressionRatio()));
        c.add("--sync=" + settings.wal().sync());
        c.add("--disable_wal=" + settings.wal().disableWal());
        c.add("--manual_wal_flush=" + settings.wal().manualWalFlush());
        c.add("--statistics=" + settings.statistics());
        c.add("--histogram=false");
        c.add("--use_existing_db=false");
        c.add("--seed=" + Math.max(1, seed));
        c.add("--db=" + dbDir);
        return c;
    }

    /** Runs db_bench once and returns its per-run line for the fill's benchmark. */
    public RunLine runOnce(FillSettings settings, Path dbDir, long seed) throws IOException {
        Files.createDirectories(dbDir);
        List<String> command = command(settings, dbDir, seed);
        String out = run(command, 3600);
        List<RunLine> lines = DbBenchOutput.parse(out).runsOf(settings.order().benchmark());
        if (lines.isEmpty()) {
            List<String> tail = out.lines().toList();
            throw new IOException("db_bench printed no " + settings.order().benchmark() + " line; last output: "
                    + String.join(" | ", tail.subList(Math.max(0, tail.size() - 3), tail.size())));
        }
        return lines.get(lines.size() - 1);
    }

    private static String run(List<String> command, long timeoutSeconds) throws IOException {
        try {
            HostCommand.Outcome o = HostCommand.of(command).within(Duration.ofSeconds(timeoutSeconds)).run();
            if (!o.succeeded()) {
                throw new IOException(o.failure());
            }
            return o.output();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while db_bench ran", e);
        }
    }
}
