package dev.gauntlet.sql.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a lab leaves on the machine when it is not taken down in order (a JVM killed with -9): processes still running
 * from its directory, its namespaces and links ({@link LabNetwork#removeLeftovers}), its directory. {@code lab down}
 * removes them, and a lab's own tear-down uses the same steps for what Patroni started and left reparented.
 */
final class LabLeftovers {

    private LabLeftovers() {
    }

    /** Every lab's processes, namespaces, links and directories under {@link PatroniCluster#ROOT}; a line each. */
    static List<String> remove(LabHost.Programs programs) {
        List<String> removed = new ArrayList<>();
        killProcesses(PatroniCluster.ROOT).forEach(pid -> removed.add("process " + pid));
        removed.addAll(LabNetwork.removeLeftovers(programs));
        if (Files.isDirectory(PatroniCluster.ROOT)) {
            try (Stream<Path> labs = Files.list(PatroniCluster.ROOT)) {
                labs.forEach(d -> {
                    deleteTree(d);
                    removed.add("directory " + d);
                });
            } catch (IOException e) {
                // best effort
            }
        }
        return removed;
    }

    /** Kills every process whose command line names {@code dir} (a postmaster Patroni started, reparented). */
    static List<Long> killProcesses(Path dir) {
        List<Long> killed = new ArrayList<>();
        String needle = dir.toString() + "/";
        ProcessHandle.allProcesses().filter(h -> h.info().commandLine().map(c -> c.contains(needle)).orElse(false))
                .filter(h -> h.pid() != ProcessHandle.current().pid())
                .forEach(h -> {
                    h.destroyForcibly();
                    killed.add(h.pid());
                });
        return killed;
    }

    /** Deletes {@code dir}, best effort: what stays is found again by {@code lab down}. */
    static void deleteTree(Path dir) {
        LabHost.runQuietly("rm", "-rf", "--one-file-system", dir.toString());
    }
}
