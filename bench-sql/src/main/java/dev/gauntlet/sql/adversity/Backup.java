package dev.gauntlet.sql.adversity;

import dev.gauntlet.sql.server.BaseBackup;
import dev.gauntlet.sql.server.LocalPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A full backup of the primary while the workload runs: a base backup with the low-level API (what pg_basebackup
 * does; the embedded binaries have none) into a scratch directory beside the data, deleted afterwards. The I/O of
 * reading the whole data directory is the disruption.
 */
final class Backup extends SystemDisruption {

    private volatile Path scratch;

    Backup(String name, SystemUnderTest system) {
        super(name, system);
    }

    @Override
    public void start(Log log) throws Exception {
        LocalPostgres primary = system.local().orElseThrow().primary();
        scratch = Files.createTempDirectory(primary.dataDirectory().getParent(), "gauntlet-backup-");
        long t0 = System.nanoTime();
        try (Connection c = primary.connect("postgres")) {
            BaseBackup.Outcome o = BaseBackup.take(c, primary.dataDirectory(), scratch.resolve("data"), "gauntlet " + name);
            log.note(String.format(Locale.ROOT, "base backup of %,d MB in %,d files took %.1f s (WAL %s to %s)",
                    o.bytes() >> 20, o.files(), (System.nanoTime() - t0) / 1e9, o.startLsn(), o.stopLsn()));
        } finally {
            delete();
        }
    }

    @Override
    public void stop(Log log) throws Exception {
        delete();
    }

    private void delete() throws IOException {
        Path dir = scratch;
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> tree = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) tree.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
