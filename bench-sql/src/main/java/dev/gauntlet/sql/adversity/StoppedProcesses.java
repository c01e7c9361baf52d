package dev.gauntlet.sql.adversity;

import java.util.List;

/**
 * Server processes stopped with SIGSTOP, and what ends that: resumed (SIGCONT) or killed (SIGKILL, for a held WAL
 * sender that must not send what it holds). Until then a JVM shutdown hook resumes them, so a run stopped in between
 * (Ctrl-C) leaves no server frozen. Ending twice does nothing.
 */
final class StoppedProcesses {

    private final List<Long> pids;
    private final Thread hook;
    private boolean ended;

    private StoppedProcesses(List<Long> pids, String name) {
        this.pids = List.copyOf(pids);
        this.hook = new Thread(this::resumeQuietly, "gauntlet-" + name + "-undo");
    }

    /** Stops {@code pids}; resumes them and throws when that fails half-way. */
    static StoppedProcesses stop(List<Long> pids, String name) throws Exception {
        StoppedProcesses s = new StoppedProcesses(pids, name);
        Runtime.getRuntime().addShutdownHook(s.hook);
        try {
            DiskStall.signal("STOP", s.pids);
        } catch (Exception | Error e) {
            s.resumeQuietly();
            throw e;
        }
        return s;
    }

    List<Long> pids() {
        return pids;
    }

    synchronized void resume() throws Exception {
        end("CONT");
    }

    synchronized void kill() throws Exception {
        end("KILL");
    }

    /** Resumes them, saying nothing when that fails: the JVM is going, or they are gone. */
    synchronized void resumeQuietly() {
        try {
            end("CONT");
        } catch (Exception ignored) {
            // gone already, or the JVM is going
        }
    }

    private void end(String signal) throws Exception {
        if (ended) {
            return;
        }
        ended = true;
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
        DiskStall.signal(signal, pids);
    }
}
