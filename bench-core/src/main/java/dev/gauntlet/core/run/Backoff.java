package dev.gauntlet.core.run;

import java.util.concurrent.ThreadLocalRandom;

/** Capped exponential backoff with full jitter, so clients that failed together do not retry together. */
public record Backoff(long baseNanos, long capNanos) {

    public static final Backoff RETRY = new Backoff(5_000_000L, 1_000_000_000L);
    public static final Backoff RECONNECT = new Backoff(100_000_000L, 5_000_000_000L);

    /** The pause before attempt {@code attempt} (1 = first retry). */
    public long pauseNanos(int attempt) {
        long ceiling = capNanos;
        if (attempt < 40) {
            ceiling = Math.min(capNanos, baseNanos << Math.max(0, attempt - 1));
        }
        return ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);
    }
}
