package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.run.Disruption;
import java.util.Locale;

/**
 * A node restart: {@code pg_ctl restart -m fast} (open transactions rolled back, a shutdown checkpoint) or
 * {@code -m immediate} (like a crash: the start replays the WAL). Every session is cut.
 */
final class Restart implements Disruption {

    private final String name;
    private final SystemUnderTest system;
    private final boolean immediate;

    Restart(String name, SystemUnderTest system, boolean immediate) {
        this.name = name;
        this.system = system;
        this.immediate = immediate;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void start(Log log) {
        long t0 = System.nanoTime();
        system.local().orElseThrow().primary().restart(immediate);
        log.note(String.format(Locale.ROOT, "pg_ctl restart -m %s: the primary was back in %.1f s",
                immediate ? "immediate" : "fast", (System.nanoTime() - t0) / 1e9));
    }
}
