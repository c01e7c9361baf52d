package dev.gauntlet.core.history;

import dev.gauntlet.core.result.Conditions;
import dev.gauntlet.core.result.RunResult;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What makes runs like for like, so their figures belong on one line over time: the workload, the variant, the
 * clients and every parameter that is a condition of the test. Not part of it: the seed and what else the workload
 * drew at random ({@link Conditions}) and how the run ended (they differ between runs of one command), labels ({@code --label release=25.2} names a run, it does not change what ran),
 * the machine and the database's version (a history exists to see what an upgrade did), and whatever parameter the
 * history is ordered by ({@code report history --by NAME}).
 *
 * @param workload   the workload's name
 * @param variant    the variant, or null
 * @param conditions the parameters that define the test, clients included, by name
 */
public record SeriesKey(String workload, String variant, Map<String, String> conditions) {

    /**
     * Parameters that say how one run ended (an interrupted run is still a run of the test) or how a merge was made:
     * not conditions in a history, besides those {@link Conditions} says are not. A comparison does name them, as the
     * difference between two sides.
     */
    private static final Set<String> NOT_CONDITIONS = Set.of("stopReason", "fatalError",
            "mergeDifferingParameters", "mergeDroppedMetrics");

    public SeriesKey {
        Objects.requireNonNull(workload, "workload");
        conditions = java.util.Collections.unmodifiableMap(new TreeMap<>(conditions));
    }

    /**
     * The series a run belongs to.
     *
     * @param orderedBy parameters left out because the history is ordered by them (a version label given as a
     *                  parameter); empty for none
     */
    public static SeriesKey of(RunResult run, Set<String> orderedBy) {
        Map<String, String> conditions = new TreeMap<>();
        conditions.put("clients", String.valueOf(run.clients()));
        run.parameters().forEach((name, value) -> {
            if (Conditions.isCondition(run, name) && !NOT_CONDITIONS.contains(name) && !orderedBy.contains(name)) {
                conditions.put(name, String.valueOf(value));
            }
        });
        return new SeriesKey(run.workload() == null ? "?" : run.workload(), run.variant(), conditions);
    }

    /** The workload and variant, as series are headed: {@code tpcc}, {@code trainevents [text/direct]}. */
    public String title() {
        return variant == null ? workload : workload + " [" + variant + "]";
    }

    /** The whole key on one line: the title, then every condition as name=value, in name order. */
    public String describe() {
        return title() + conditions.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" ", conditions.isEmpty() ? "" : " ", ""));
    }

    @Override
    public String toString() {
        return describe();
    }
}
