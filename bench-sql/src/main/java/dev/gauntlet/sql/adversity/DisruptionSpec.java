package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.result.Durations;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One disruption as a plan states it, within its phase: what ({@code kind} and its options), when ({@code at} after
 * the phase starts), for how long ({@code length}, null for an event), and how often: {@code repeat} times, either
 * {@code every} apart or, with {@code random}, at random times between {@code at} and {@code until} (null: the
 * phase's end), drawn from the run's seed and never overlapping one another.
 *
 * @param label how results name it: the plan's {@code name}, else the kind's label
 */
public record DisruptionSpec(DisruptionKind kind, String label, Duration at, Duration length, int repeat,
                             Duration every, boolean random, Duration until, Map<String, String> options) {

    public DisruptionSpec {
        options = Map.copyOf(options);
    }

    /** An option's value as given, or the kind's default. */
    public String option(String name) {
        String v = options.get(name);
        return v != null ? v : kind.options().getOrDefault(name, "");
    }

    public Duration durationOption(String name) {
        return Durations.parse(option(name));
    }

    /** A share of connections from 0 (exclusive) to 1: {@code 0.5} or {@code 50%}. */
    public double shareOption(String name) {
        return share(option(name));
    }

    static double share(String text) {
        String t = text.trim();
        double v = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100
                : Double.parseDouble(t);
        if (!(v > 0 && v <= 1)) {
            throw new IllegalArgumentException("'" + text + "' is not a share between 0 and 1 (or 1% to 100%)");
        }
        return v;
    }

    /** A list option ({@code [a, b]} or {@code a,b} in the plan) as its items; empty when not given. */
    public List<String> listOption(String name) {
        return Arrays.stream(option(name).split(",")).map(String::trim).filter(v -> !v.isEmpty()).toList();
    }

    /**
     * The kind's description with this disruption's values in place of its option names (LATENCY, SHARE, TABLE...:
     * {@code 50ms}, {@code 50%}, {@code order_line}), and LENGTH its length; HOSTS reads "its servers" (a dry run lists
     * them on a line of their own).
     */
    public String describe() {
        String text = kind.description();
        for (String name : kind.options().keySet()) {
            String value = name.equals("hosts") ? "its servers"
                    : name.equals("share") ? percent(shareOption(name)) : option(name);
            if (!value.isBlank()) {
                text = text.replaceAll("\\b" + java.util.regex.Pattern.quote(name.toUpperCase(Locale.ROOT)) + "\\b",
                        java.util.regex.Matcher.quoteReplacement(value));
            }
        }
        return length == null ? text : text.replaceAll("\\bLENGTH\\b", Durations.format(length));
    }

    private static String percent(double share) {
        double p = share * 100;
        return (p == Math.rint(p) ? String.valueOf((long) p) : String.format(Locale.ROOT, "%.1f", p)) + "%";
    }

    public double numberOption(String name) {
        return Double.parseDouble(option(name).trim().toLowerCase(Locale.ROOT));
    }
}
