package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.host.HostCommand;
import dev.gauntlet.sql.server.LocalPostgres;
import dev.gauntlet.sql.server.LoopFileSystem;
import dev.gauntlet.sql.server.ReplicatedPostgres;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A disk stall: the database cannot write for the disruption's length. Where the servers' data directories live on
 * a loop-mounted file system of their own ({@link ReplicatedPostgres#fileSystem()}, root), its writes are frozen with
 * {@code fsfreeze}: reads from memory go on, every write (WAL flush at commit first) waits in the kernel, as on a
 * disk that stopped taking writes. Elsewhere the primary's processes are stopped (SIGSTOP, resumed with SIGCONT), so
 * reads wait too. The notes say which. Clients see statements hang, not errors. A JVM shutdown hook thaws or resumes
 * if the run is killed meanwhile.
 */
final class DiskStall extends SystemDisruption {

    private final List<Long> stopped = new ArrayList<>();
    private LoopFileSystem frozen;
    private Thread resumeOnExit;

    DiskStall(String name, SystemUnderTest system) {
        super(name, system);
    }

    @Override
    public synchronized void start(Log log) throws Exception {
        ReplicatedPostgres servers = system.local().orElseThrow();
        if (servers.fileSystem().isPresent()) {
            LoopFileSystem fs = servers.fileSystem().get();
            resumeOnExit = new Thread(this::resumeQuietly, "gauntlet-disk-stall-undo");
            Runtime.getRuntime().addShutdownHook(resumeOnExit);
            frozen = fs;
            fs.freeze();
            log.note("froze writes to the servers' file system (fsfreeze " + fs.mountPoint() + ", a loop-mounted ext4)");
            return;
        }
        LocalPostgres primary = servers.primary();
        if (primary.serverProcesses().isEmpty()) {
            throw new IllegalStateException("the primary has no running processes to freeze");
        }
        resumeOnExit = new Thread(this::resumeQuietly, "gauntlet-disk-stall-undo");
        Runtime.getRuntime().addShutdownHook(resumeOnExit);
        stopAll(primary);
        log.note("froze the primary's " + stopped.size() + " processes (SIGSTOP)");
    }

    /**
     * Stops every process of the server, in rounds: the postmaster may fork a backend or a worker between one listing
     * and its stop signal, so the processes are listed again until a listing finds none not yet stopped (once the
     * postmaster is stopped, nothing new appears).
     */
    private void stopAll(LocalPostgres primary) throws IOException, InterruptedException {
        for (int round = 0; round < 20; round++) {
            List<Long> fresh = new ArrayList<>(primary.serverProcesses());
            fresh.removeAll(stopped);
            if (fresh.isEmpty()) {
                return;
            }
            stopped.addAll(fresh);
            signal("STOP", fresh);
        }
        throw new IllegalStateException("the primary kept starting processes while they were being stopped");
    }

    @Override
    public synchronized void stop(Log log) throws Exception {
        if (frozen != null) {
            boolean thawed = frozen.thaw();
            frozen = null;
            log.note(thawed ? "thawed (fsfreeze -u)" : "thawed by the exit hook (the run was stopped)");
        } else if (!stopped.isEmpty()) {
            signal("CONT", stopped);
            log.note("resumed them (SIGCONT)");
            stopped.clear();
        } else {
            return;
        }
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
            if (frozen != null) {
                frozen.thawQuietly();
            }
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
        HostCommand.Outcome outcome = HostCommand.of(command).within(Duration.ofSeconds(10)).run();
        if (!outcome.succeeded() && (outcome.timedOut() || !outcome.output().contains("No such process"))) {
            throw new IOException(outcome.failure());
        }
    }
}
