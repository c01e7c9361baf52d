package dev.gauntlet.core.run;

import dev.gauntlet.core.result.GaugeInfo;
import java.util.Map;

/**
 * Figures sampled over the run: the server's table and index sizes, dead tuples, autovacuum runs, WAL written, what
 * its sessions wait on. Each figure becomes one of the run's gauges, so it is in every interval of the result and
 * drawn on the charts like the gauges operations set. Each gauge declares its {@link GaugeInfo}:
 * <ul>
 *   <li>A {@link GaugeInfo.Kind#LEVEL level} (a reading at a moment) is read on a thread of the runner's own shortly
 *       before every interval closes (regular ticks, phase boundaries, the end): a read that is slow delays only the
 *       next sample, never the clients or the closing of an interval; a read that fails leaves its gauges out of the
 *       intervals until one succeeds (a gap, not a stale value).</li>
 *   <li>A {@link GaugeInfo.Kind#RATE rate} (what was counted since the previous call) is read by the runner at the
 *       start and at every interval close, phase boundaries and the end included, so each interval holds exactly
 *       its own counts and none crosses a boundary. Its {@link #sample} must therefore return at once, from memory
 *       (a thread of the probe's own does the counting).</li>
 * </ul>
 * A probe's gauges are all levels or all rates.
 */
public interface GaugeProbe extends Probe {

    /** The figures now (a rate: since the previous call), by gauge name. */
    Map<String, Long> sample() throws Exception;

    /** What kind of figures {@link #sample} returns: levels or rates (counts since the previous call). */
    GaugeInfo.Kind kind();

    /** How the values of driver processes of one run merge, for one of this probe's gauges. */
    GaugeInfo.Merge merge(String gauge);

    /**
     * A run starts reading it: figures counted from a run's start start again (the same probe may serve a priming and
     * then the measured run).
     */
    default void runStarts() {
    }
}
