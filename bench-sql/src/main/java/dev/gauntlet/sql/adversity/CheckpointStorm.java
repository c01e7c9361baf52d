package dev.gauntlet.sql.adversity;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;

/** {@code CHECKPOINT} again and again for the disruption's length: every dirty page flushed, full-page writes after. */
final class CheckpointStorm extends SystemDisruption {

    private final Duration every;
    private volatile Thread storm;
    private volatile boolean on;
    private long checkpoints;
    private String failure;

    CheckpointStorm(String name, SystemUnderTest system, Duration every) {
        super(name, system);
        this.every = every;
    }

    @Override
    public void start(Log log) {
        on = true;
        Thread t = new Thread(() -> {
            while (on) {
                long next = System.nanoTime() + every.toNanos();
                try (Connection c = system.admin(); Statement s = c.createStatement()) {
                    while (on) {
                        s.execute("CHECKPOINT");
                        checkpoints++;
                        long left = next - System.nanoTime();
                        if (left > 0) {
                            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
                        }
                        next += every.toNanos();
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    failure = e.getMessage();
                    try {
                        Thread.sleep(500); // the server may be restarting: try again
                    } catch (InterruptedException stop) {
                        return;
                    }
                }
            }
        }, "gauntlet-" + name);
        t.setDaemon(true);
        storm = t;
        t.start();
    }

    @Override
    public void stop(Log log) throws InterruptedException {
        on = false;
        Thread t = storm;
        if (t != null) {
            t.interrupt();
            t.join(60_000);
        }
        log.note(String.format(Locale.ROOT, "%d checkpoints, one every %s", checkpoints,
                dev.gauntlet.core.result.Durations.format(every)) + (failure == null ? "" : "; last error: " + failure));
    }
}
