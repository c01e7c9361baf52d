package dev.gauntlet.sql.server;

import dev.gauntlet.core.host.Executables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operating-system account that runs initdb, pg_ctl and postgres. PostgreSQL refuses to run as root, and
 * this project's machines and CI run as root, so a root JVM hands the server to the unprivileged user
 * {@code nobody} (uid/gid 65534) through {@code setpriv} (or {@code runuser}); any other user runs it as itself.
 */
final class ServerAccount {

    private static final Logger log = LoggerFactory.getLogger(ServerAccount.class);
    private static final String NOBODY_ID = "65534";
    private static final Set<PosixFilePermission> OPEN_DIRECTORY = PosixFilePermissions.fromString("rwxr-xr-x");

    private final boolean root;
    private final List<String> commandPrefix;

    private ServerAccount(boolean root, List<String> commandPrefix) {
        this.root = root;
        this.commandPrefix = commandPrefix;
    }

    /** The account for this JVM: itself, or {@code nobody} when the JVM runs as root. */
    static ServerAccount forThisProcess() {
        if (!isRoot()) {
            return new ServerAccount(false, List.of());
        }
        Optional<Path> setpriv = findExecutable("setpriv");
        if (setpriv.isPresent()) {
            return new ServerAccount(true, List.of(setpriv.get().toString(),
                    "--reuid=" + NOBODY_ID, "--regid=" + NOBODY_ID, "--clear-groups"));
        }
        Optional<Path> runuser = findExecutable("runuser");
        if (runuser.isPresent()) {
            return new ServerAccount(true, List.of(runuser.get().toString(), "-u", "nobody", "--"));
        }
        throw new LocalPostgresException("PostgreSQL refuses to run as root and neither setpriv nor runuser "
                + "(util-linux) was found to run it as user nobody; install util-linux, run as a normal user, "
                + "or pass --url");
    }

    /** Root is the effective uid 0 (from /proc), or the user name where /proc is absent. */
    static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("Uid:")) {
                    String[] ids = line.substring(4).trim().split("\\s+");
                    return ids.length > 1 && ids[1].equals("0");
                }
            }
        } catch (IOException | RuntimeException e) {
            log.debug("could not read /proc/self/status, falling back to user.name", e);
        }
        return "root".equals(System.getProperty("user.name"));
    }

    /** True when the server runs as {@code nobody} because this JVM is root. */
    boolean isStandInForRoot() {
        return root;
    }

    String describe() {
        return root ? "nobody (uid " + NOBODY_ID + ", because PostgreSQL refuses root)" : System.getProperty("user.name");
    }

    /** The command line that runs {@code argv} as this account. */
    List<String> command(List<String> argv) {
        List<String> command = new ArrayList<>(commandPrefix);
        command.addAll(argv);
        return command;
    }

    /**
     * Makes the data directory belong to the server account; a no-op unless root. Only the top is checked
     * first, so a reused data directory costs one stat, not a walk.
     */
    void own(Path dataDirectory) throws IOException {
        if (!root) {
            return;
        }
        UserPrincipalLookupService lookup = FileSystems.getDefault().getUserPrincipalLookupService();
        UserPrincipal nobody = lookup.lookupPrincipalByName(NOBODY_ID);
        GroupPrincipal nogroup = lookup.lookupPrincipalByGroupName(NOBODY_ID);
        if (Files.getOwner(dataDirectory, LinkOption.NOFOLLOW_LINKS).equals(nobody)) {
            return;
        }
        log.debug("giving {} to uid {}", dataDirectory, NOBODY_ID);
        try (Stream<Path> tree = Files.walk(dataDirectory)) {
            for (Path p : (Iterable<Path>) tree::iterator) {
                PosixFileAttributeView view =
                        Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
                view.setOwner(nobody);
                view.setGroup(nogroup);
            }
        }
    }

    /**
     * Checks that {@code nobody} can reach {@code directory}: every directory from / down to it must be
     * searchable by others. Directories under the system temp directory are throwaway, so we open them for
     * searching ourselves (JUnit's @TempDir is mode 700); elsewhere we refuse rather than loosen permissions on
     * a user's own directories, such as /root. For a directory still to be created, its nearest existing
     * ancestor is checked, since we create missing directories searchable by all.
     */
    void ensureReachable(Path directory) throws IOException {
        if (!root) {
            return;
        }
        Path existing = directory.toAbsolutePath().normalize();
        while (existing.getParent() != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        Path real = existing.toRealPath();
        Path temp = Path.of(System.getProperty("java.io.tmpdir")).toRealPath();
        List<Path> chain = new ArrayList<>();
        for (Path p = real; p != null; p = p.getParent()) {
            chain.add(0, p);
        }
        for (Path p : chain) {
            PosixFileAttributes attributes = Files.readAttributes(p, PosixFileAttributes.class);
            Set<PosixFilePermission> permissions = attributes.permissions();
            boolean ownedByNobody = attributes.owner().getName().equals("nobody")
                    || attributes.owner().getName().equals(NOBODY_ID);
            if (permissions.contains(PosixFilePermission.OTHERS_EXECUTE) || ownedByNobody) {
                continue;
            }
            if (p.startsWith(temp) && !p.equals(temp)) {
                Set<PosixFilePermission> widened = EnumSet.copyOf(permissions);
                widened.add(PosixFilePermission.OTHERS_EXECUTE);
                Files.setPosixFilePermissions(p, widened);
                log.debug("allowed others to search {} so the server user can reach {}", p, real);
                continue;
            }
            throw new LocalPostgresException("PostgreSQL runs as user nobody because this process is root, and "
                    + "nobody cannot enter " + p + " (mode " + PosixFilePermissions.toString(permissions)
                    + "); put the data and cache directories outside it, e.g. under /var/tmp/gauntlet");
        }
    }

    /** Creates a directory and any missing parents readable and searchable by everyone. */
    static void createOpenDirectories(Path directory) throws IOException {
        Path absolute = directory.toAbsolutePath();
        List<Path> missing = new ArrayList<>();
        for (Path p = absolute; p != null && !Files.exists(p); p = p.getParent()) {
            missing.add(0, p);
        }
        for (Path p : missing) {
            try {
                Files.createDirectory(p);
                // Set explicitly: a umask of 077 would otherwise hide the binaries from the server account.
                Files.setPosixFilePermissions(p, OPEN_DIRECTORY);
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // Another process created it at the same moment; fine.
            }
        }
    }

    private static Optional<Path> findExecutable(String name) {
        return Executables.find(name, "/usr/bin", "/bin", "/usr/sbin", "/sbin");
    }
}
