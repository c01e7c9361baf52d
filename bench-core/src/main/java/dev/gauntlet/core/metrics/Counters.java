package dev.gauntlet.core.metrics;

/**
 * Where a committed operation says what it did beyond "it committed": order lines written, payments made
 * by last name, messages consumed. The runner keeps one set per operation name and, like latencies,
 * counts only what committed in the measured phase; a retried attempt never counts twice. (An operation
 * in flight exactly when the warm-up ends may land on either side of the boundary, as its latency may.)
 *
 * <p>Thread safety: {@link #add} may be called from any worker thread.
 */
@FunctionalInterface
public interface Counters {

    /** Adds {@code amount} to the counter called {@code name} (created at zero on first use). */
    void add(String name, long amount);
}
