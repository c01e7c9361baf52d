package dev.gauntlet.sql.adversity;

import java.util.Locale;

/**
 * A node restart: {@code pg_ctl restart -m fast} (open transactions rolled back, a shutdown checkpoint) or
 * {@code -m immediate} (like a crash: the start replays the WAL). Every session is cut.
 */
final class Restart extends SystemDisruption {

    private final boolean immediate;

    Restart(String name, SystemUnderTest system, boolean immediate) {
        super(name, system);
        this.immediate = immediate;
    }

    @Override
    public void start(Log log) {
        long t0 = System.nanoTime();
        system.local().orElseThrow().primary().restart(immediate);
        log.note(String.format(Locale.ROOT, "pg_ctl restart -m %s: the primary was back in %.1f s",
                immediate ? "immediate" : "fast", (System.nanoTime() - t0) / 1e9));
    }
}
