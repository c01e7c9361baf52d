package dev.gauntlet.script.pgbench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether standard error is a terminal (a person reading, not a script or a test capturing it), read from Linux's /proc. */
final class Terminal {

    private Terminal() {
    }

    static boolean stderr() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
