package dev.gauntlet.core.run;

import java.util.Map;

/**
 * Figures sampled over the run, once per report interval, on a thread of the runner's own: the server's table and
 * index sizes, dead tuples, autovacuum runs, WAL written. Each figure becomes one of the run's gauges, so it is in
 * every interval of the result and drawn on the charts like the gauges operations set. A read that is slow delays
 * only the next sample, never the clients or the closing of an interval; a read that fails leaves its gauges out of
 * the intervals until one succeeds (a gap, not a stale value).
 */
public interface GaugeProbe extends Probe {

    /** The figures now, by gauge name. */
    Map<String, Long> sample() throws Exception;

    /** Releases what sampling holds (a connection); called once when the run ends. */
    default void close() {
    }
}
