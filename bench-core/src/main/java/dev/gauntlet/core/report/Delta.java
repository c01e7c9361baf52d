package dev.gauntlet.core.report;

/**
 * One figure of two runs side by side: the baseline's value {@code a}, the other run's {@code b}, and which way
 * is better. The change is relative to the baseline; a change smaller than the noise threshold is no win.
 *
 * @param metric    the row name, e.g. "p99 latency"
 * @param unit      how the values are written
 * @param direction whether a higher or a lower value is better
 * @param a         the baseline's value
 * @param b         the other run's value
 */
public record Delta(String metric, Unit unit, Direction direction, double a, double b) {

    /** Which way a figure should move. */
    public enum Direction {
        HIGHER_IS_BETTER, LOWER_IS_BETTER;

        private static final java.util.List<String> LOWER_BETTER_WORDS =
                java.util.List.of("latency", "lag", "delay", "error", "fail", "abort", "timeout");
        private static final java.util.List<String> TIME_SUFFIXES =
                java.util.List.of("Ms", "Millis", "Micros", "Nanos", "Seconds", "Time");

        /**
         * Workload metrics are rates (tpmC, messages per second) unless their name says they are a time, a lag or
         * a failure, since nothing else in the result tells which way they should move.
         */
        public static Direction ofMetric(String name) {
            String lower = name.toLowerCase(java.util.Locale.ROOT);
            boolean lowerBetter = LOWER_BETTER_WORDS.stream().anyMatch(lower::contains)
                    || TIME_SUFFIXES.stream().anyMatch(name::endsWith);
            return lowerBetter ? LOWER_IS_BETTER : HIGHER_IS_BETTER;
        }
    }

    /** Who came out ahead on this figure. */
    public enum Outcome { BASELINE_BETTER, OTHER_BETTER, EQUAL }

    /** How the values of a row are written. */
    public enum Unit {
        OPS_PER_SECOND(" ops/s"), MILLISECONDS(" ms"), COUNT(""), NUMBER("");

        private final String suffix;

        Unit(String suffix) {
            this.suffix = suffix;
        }

        public String format(double value) {
            return switch (this) {
                case OPS_PER_SECOND -> Figures.rate(value);
                case MILLISECONDS -> Figures.ms(value);
                case COUNT -> Figures.count(Math.round(value));
                case NUMBER -> Figures.metric(value);
            } + suffix;
        }
    }

    /** (b - a) / a in percent; 0 when both are 0, NaN when only the baseline is 0 (no finite change). */
    public double changePercent() {
        if (a == b) {
            return 0.0;
        }
        return a == 0 ? Double.NaN : (b - a) / Math.abs(a) * 100.0;
    }

    /** EQUAL when the change is smaller than the threshold; from a zero baseline any change counts. */
    public Outcome outcome(double thresholdPercent) {
        double change = changePercent();
        if (change == 0.0 || (!Double.isNaN(change) && Math.abs(change) < thresholdPercent)) {
            return Outcome.EQUAL;
        }
        boolean otherHigher = b > a;
        return otherHigher == (direction == Direction.HIGHER_IS_BETTER) ? Outcome.OTHER_BETTER
                : Outcome.BASELINE_BETTER;
    }

    /** The change as the table shows it, e.g. {@code ▲ +12.3%}; a change from zero has no percentage. */
    public String changeText() {
        double change = changePercent();
        if (Double.isNaN(change)) {
            return (b > a ? "▲ " : "▼ ") + "from 0";
        }
        if (change == 0.0) {
            return "0.0%";
        }
        return (change > 0 ? "▲ " : "▼ ") + Figures.signedPercent(change);
    }
}
