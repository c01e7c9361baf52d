package dev.gauntlet.core.host;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Programs on this machine that Gauntlet runs or tests with (pgbouncer, Toxiproxy, chromium, db_bench...). */
public final class Executables {

    private Executables() {
    }

    /**
     * The executable file {@code name} in a directory of the {@code PATH}, else in one of {@code fallbackDirs}
     * (where packages put programs that a non-login {@code PATH} may lack, like {@code /usr/sbin}), in that order.
     */
    public static Optional<Path> find(String name, String... fallbackDirs) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.addAll(List.of(fallbackDirs));
        return dirs.stream()
                .filter(d -> !d.isEmpty())
                .map(d -> Path.of(d, name))
                .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p))
                .findFirst();
    }
}
