package dev.gauntlet.sql.server;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;

/**
 * A full base backup of a running PostgreSQL on this machine with the low-level backup API, as pg_basebackup takes
 * one (the embedded binaries have no pg_basebackup): {@code pg_backup_start} in one session, a copy of the data
 * directory without what pg_basebackup leaves out (WAL, replication slots, runtime state), {@code pg_backup_stop},
 * and its label written into the copy. The copy recovers from WAL it must get elsewhere: a standby streams it (from
 * a slot made before the backup, so the primary keeps it), a restore would take it from an archive.
 */
public final class BaseBackup {

    /** Directories whose contents a base backup leaves out (their folders are kept, empty). */
    private static final Set<String> EMPTIED = Set.of("pg_wal", "pg_replslot", "pg_dynshmem", "pg_notify",
            "pg_serial", "pg_snapshots", "pg_stat_tmp", "pg_subtrans");
    /** Top-level files left out: runtime state, our server log, and what would make the copy a standby or restore. */
    private static final Set<String> SKIPPED = Set.of("postmaster.pid", "postmaster.opts", "server.log",
            "standby.signal", "recovery.signal", "backup_label", "backup_label.old", "tablespace_map");

    /** What a backup copied. */
    public record Outcome(long bytes, long files, String startLsn, String stopLsn) {
    }

    private BaseBackup() {
    }

    /**
     * Backs up the server whose data directory is {@code source} (reached through {@code admin}, a superuser session
     * on it) into {@code target}, which must not exist or be empty.
     */
    public static Outcome take(Connection admin, Path source, Path target, String label) throws SQLException, IOException {
        if (Files.exists(target)) {
            try (var entries = Files.list(target)) {
                if (entries.findAny().isPresent()) {
                    throw new IOException(target + " is not empty");
                }
            }
        } else {
            Files.createDirectories(target);
        }
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwx------"));
        boolean autoCommit = admin.getAutoCommit();
        admin.setAutoCommit(true);
        String startLsn;
        try (PreparedStatement start = admin.prepareStatement("SELECT pg_backup_start(?, true)::text")) {
            start.setString(1, label);
            try (ResultSet rs = start.executeQuery()) {
                rs.next();
                startLsn = rs.getString(1);
            }
        }
        long[] copied = new long[2];
        try {
            copy(source, target, copied);
        } catch (IOException | RuntimeException e) {
            try (Statement abort = admin.createStatement()) {
                abort.execute("SELECT pg_backup_stop(false)");
            } catch (SQLException stopFailure) {
                e.addSuppressed(stopFailure);
            }
            throw e;
        }
        try (Statement stop = admin.createStatement();
             ResultSet rs = stop.executeQuery("SELECT lsn::text, labelfile, spcmapfile FROM pg_backup_stop(false)")) {
            rs.next();
            Files.writeString(target.resolve("backup_label"), rs.getString(2));
            String spcmap = rs.getString(3);
            if (spcmap != null && !spcmap.isEmpty()) {
                Files.writeString(target.resolve("tablespace_map"), spcmap);
            }
            return new Outcome(copied[0], copied[1], startLsn, rs.getString(1));
        } finally {
            admin.setAutoCommit(autoCommit);
        }
    }

    private static void copy(Path source, Path target, long[] copied) throws IOException {
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Path relative = source.relativize(dir);
                Path to = target.resolve(relative.toString());
                if (!relative.toString().isEmpty()) {
                    Files.createDirectories(to);
                    Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rwx------"));
                }
                return relative.getNameCount() == 1 && EMPTIED.contains(relative.toString())
                        ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Path relative = source.relativize(file);
                String name = file.getFileName().toString();
                if (relative.getNameCount() == 1 && SKIPPED.contains(name) || name.equals("pg_internal.init")
                        || !attrs.isRegularFile()) {
                    return FileVisitResult.CONTINUE;
                }
                try {
                    Path to = target.resolve(relative.toString());
                    Files.copy(file, to, StandardCopyOption.REPLACE_EXISTING);
                    Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rw-------"));
                    copied[0] += attrs.size();
                    copied[1]++;
                } catch (NoSuchFileException gone) {
                    // Dropped or rewritten while we copied: WAL replay from the backup's start recreates it.
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }
        });
    }
}
