package dev.gauntlet.core.result;

/**
 * A gauge an operation reported (e.g. consumer lag in messages) over the measured phase: its last value, and the
 * smallest and largest it showed at an interval's end. Gauges of concurrent driver processes add up (each reports
 * its own share, e.g. lag over its partitions), so a merge sums them.
 */
public record GaugeSummary(long last, long min, long max) {

    public GaugeSummary plus(GaugeSummary o) {
        return new GaugeSummary(last + o.last, min + o.min, max + o.max);
    }
}
