package dev.gauntlet.sql.lab;

import dev.gauntlet.core.host.Executables;
import dev.gauntlet.core.host.HostCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a lab needs of the machine it runs on, and the one way it runs the machine's commands. A cluster in network
 * namespaces needs root and Debian's packages ({@value #INSTALL}); without them the lab refuses before anything
 * starts, in one line that names what is missing and the line that installs it.
 */
final class LabHost {

    static final String INSTALL = "apt-get install patroni etcd-server haproxy postgresql iproute2";
    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(30);

    private LabHost() {
    }

    /** Everything the lab needs, or what is missing and how to get it: one line, thrown. */
    static Programs require() {
        List<String> missing = new ArrayList<>();
        if (!"root".equals(System.getProperty("user.name"))) {
            missing.add("root (network namespaces, a bridge, processes as user postgres)");
        }
        Optional<Path> patroni = Executables.find("patroni", "/usr/bin");
        Optional<Path> patronictl = Executables.find("patronictl", "/usr/bin");
        Optional<Path> etcd = Executables.find("etcd", "/usr/bin", "/usr/sbin");
        Optional<Path> haproxy = Executables.find("haproxy", "/usr/sbin", "/usr/bin");
        Optional<Path> ip = Executables.find("ip", "/usr/sbin", "/sbin", "/usr/bin", "/bin");
        Optional<Path> runuser = Executables.find("runuser", "/usr/sbin", "/sbin", "/usr/bin", "/bin");
        Optional<Path> postgresBin = postgresBin();
        patroni.ifPresentOrElse(p -> { }, () -> missing.add("patroni"));
        patronictl.ifPresentOrElse(p -> { }, () -> missing.add("patronictl (package patroni)"));
        etcd.ifPresentOrElse(p -> { }, () -> missing.add("etcd (package etcd-server)"));
        haproxy.ifPresentOrElse(p -> { }, () -> missing.add("haproxy"));
        ip.ifPresentOrElse(p -> { }, () -> missing.add("ip (package iproute2)"));
        runuser.ifPresentOrElse(p -> { }, () -> missing.add("runuser (package util-linux)"));
        postgresBin.ifPresentOrElse(p -> { }, () -> missing.add("PostgreSQL's server programs "
                + "(/usr/lib/postgresql/VERSION/bin, package postgresql)"));
        if (!accountExists("postgres")) {
            missing.add("the operating-system user postgres (package postgresql makes it)");
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("a Patroni lab needs " + String.join(", ", missing)
                    + " (Debian/Ubuntu, as root: " + INSTALL + ")");
        }
        // Root in a container without the capability is not enough: make and remove a namespace to know.
        String scratch = "gl-probe-" + ProcessHandle.current().pid();
        try {
            run(ip.get().toString(), "netns", "add", scratch);
            run(ip.get().toString(), "netns", "delete", scratch);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("a Patroni lab needs network namespaces, and this machine refused one ("
                    + e.getMessage() + "); run it where root may make them (not an unprivileged container)", e);
        }
        return new Programs(patroni.get(), patronictl.get(), etcd.get(), haproxy.get(), ip.get(), runuser.get(),
                postgresBin.get());
    }

    /** The programs a lab runs. */
    record Programs(Path patroni, Path patronictl, Path etcd, Path haproxy, Path ip, Path runuser,
                    Path postgresBin) {
    }

    /** The newest {@code /usr/lib/postgresql/VERSION/bin} with a {@code postgres} in it. */
    static Optional<Path> postgresBin() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("postgres")) && Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparingInt(LabHost::version));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static int version(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString().replaceAll("\\D.*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static boolean accountExists(String name) {
        try {
            return Files.readAllLines(Path.of("/etc/passwd")).stream().anyMatch(l -> l.startsWith(name + ":"));
        } catch (IOException e) {
            return false;
        }
    }

    /** Runs {@code command} to its end (30 s at most); its failure, with what it printed, thrown in one line. */
    static String run(String... command) {
        try {
            HostCommand.Outcome o = HostCommand.of(command).within(COMMAND_LIMIT).env("LC_ALL", "C").run();
            if (!o.succeeded()) {
                throw new IllegalStateException(o.failure());
            }
            return o.output();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        }
    }

    /** Runs {@code command} and ignores its failure: what tearing down does, so one step's failure stops no other. */
    static void runQuietly(String... command) {
        try {
            run(command);
        } catch (IllegalStateException e) {
            // already gone, or never made
        }
    }
}
