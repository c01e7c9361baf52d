package dev.gauntlet.core.adversity;

import dev.gauntlet.core.db.LocalPostgres;
import dev.gauntlet.core.run.Disruption;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A disk stall: the primary cannot write for the disruption's length. Done by stopping the server's processes
 * (SIGSTOP, resumed with SIGCONT): every write, and every read, waits, as on a disk that stopped answering. Clients
 * see statements hang, not errors. (fsfreeze would stall writes alone, but needs the data directory on a file system
 * of its own.) A JVM shutdown hook resumes the processes if the run is killed while they are stopped.
 */
final class DiskStall implements Disruption {

    private final String name;
    private final SystemUnderTest system;
    private final List<Long> stopped = new ArrayList<>();
    private Thread resumeOnExit;

    DiskStall(String name, SystemUnderTest system) {
        this.name = name;
        this.system = system;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public synchronized void start(Log log) throws Exception {
        LocalPostgres primary = system.local().orElseThrow().primary();
        List<Long> pids = primary.serverProcesses();
        if (pids.isEmpty()) {
            throw new IllegalStateException("the primary has no running processes to freeze");
        }
        resumeOnExit = new Thread(this::resumeQuietly, "gauntlet-disk-stall-undo");
        Runtime.getRuntime().addShutdownHook(resumeOnExit);
        stopped.addAll(pids);
        signal("STOP", pids);
        log.note("froze the primary's " + pids.size() + " processes (SIGSTOP)");
    }

    @Override
    public synchronized void stop(Log log) throws Exception {
        if (stopped.isEmpty()) {
            return;
        }
        signal("CONT", stopped);
        log.note("resumed them (SIGCONT)");
        stopped.clear();
        if (resumeOnExit != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(resumeOnExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run: it resumed them too
            }
        }
    }

    private synchronized void resumeQuietly() {
        try {
            if (!stopped.isEmpty()) {
                signal("CONT", stopped);
            }
        } catch (Exception ignored) {
            // the JVM is going; nothing more can be done
        }
    }

    static void signal(String signal, List<Long> pids) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(p -> command.add(Long.toString(p)));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0 && !out.contains("No such process")) {
            throw new IOException("kill -" + signal + " failed: " + out);
        }
    }
}
