package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.result.RecoveryRule;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.gauntlet.core.objective.Objective;
import dev.gauntlet.core.result.Durations;
import dev.gauntlet.core.run.PhasePlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a plan file (YAML) into an {@link AdversityPlan}, checking everything a plan can get wrong before anything
 * starts. Every problem is one {@link PlanException} line naming the file and where in it:
 *
 * <pre>
 * name: pua-smoke
 * standby: sync                 # sync | async | none: the embedded topology's standby (a cluster's: sync | async)
 * cluster: patroni              # optional: a Patroni cluster started for the run; or a mapping: kind: patroni,
 *                               #   nodes: 3, route: haproxy | multi-host, maximum-lag-on-failover: 1MB
 * recovery:                     # all optional
 *   baseline: baseline          # the phase recovery compares with (default: the first measured phase)
 *   operation: newOrder         # what recovery is judged on (default: all operations)
 *   window: 10s                 # rolling window; hold: 30s; tolerance: 10%; latency-factor: 2
 * phases:
 *   - name: warmup
 *     length: 20s
 *     measured: false
 *   - name: baseline
 *     length: 60s
 *   - name: disk-stalls
 *     length: 2m
 *     disruptions:
 *       - kind: disk-stall      # see DisruptionKind for every kind and its options
 *         length: 5s
 *         repeat: 3
 *         random: true          # at random times in the phase (seeded; until: TIME bounds them); else every: 30s
 *   - name: recovery
 *     length: 5m                # a limit: the phase ends once the workload is back by the recovery rule
 *     until: recovered
 * </pre>
 */
public final class PlanFile {

    private static final Set<String> TOP = Set.of("name", "description", "standby", "cluster", "recovery",
            "phases", "slo");
    private static final Set<String> CLUSTER = Set.of("kind", "nodes", "route", "maximum-lag-on-failover");
    private static final Set<String> RECOVERY = Set.of("baseline", "operation", "window", "hold", "tolerance",
            "latency-factor");
    private static final Set<String> PHASE = Set.of("name", "length", "measured", "until", "disruptions");
    private static final Set<String> TIMING = Set.of("kind", "name", "at", "length", "repeat", "every", "random", "until");

    /** The plans that ship with Gauntlet (in plans/ and on the classpath). */
    public static final List<String> SHIPPED = List.of("pua-smoke", "pua-postgres", "pua-failover-loss",
            "pua-patroni");

    private final String file;

    private PlanFile(String file) {
        this.file = file;
    }

    /** A plan that cannot be run, in one line: {@code FILE: where: what is wrong}. */
    public static final class PlanException extends IllegalArgumentException {
        PlanException(String message) {
            super(message);
        }
    }

    /**
     * Reads a plan file; a path that does not exist but names a shipped plan ({@code pua-smoke},
     * {@code pua-smoke.yaml} or {@code plans/pua-smoke.yaml}) reads that plan from the classpath.
     */
    public static AdversityPlan read(Path path) {
        PlanFile reader = new PlanFile(path.toString());
        String text;
        try {
            text = Files.readString(path);
        } catch (NoSuchFileException e) {
            String name = path.getFileName().toString();
            String shipped = name.endsWith(".yaml") ? name : name + ".yaml";
            try (java.io.InputStream in = PlanFile.class.getResourceAsStream("plans/" + shipped)) {
                if (in != null) {
                    return reader.parse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
                }
            } catch (IOException ignored) {
                // fall through to the message about the file
            }
            throw new PlanException("plan " + path + " does not exist (shipped plans: " + String.join(", ",
                    SHIPPED) + ")");
        } catch (IOException e) {
            throw new PlanException("cannot read plan " + path + ": " + e.getMessage());
        }
        return reader.parse(text);
    }

    /** Parses plan text; {@code file} names it in messages. */
    public static AdversityPlan parse(String file, String text) {
        return new PlanFile(file).parse(text);
    }

    private AdversityPlan parse(String text) {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(text);
        } catch (IOException e) {
            throw fail("not valid YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (root == null || !root.isObject()) {
            throw fail("a plan is a YAML mapping with name and phases");
        }
        keys(root, TOP, "the plan");
        String name = root.hasNonNull("name") ? root.get("name").asText() : Path.of(file).getFileName().toString();
        String description = root.hasNonNull("description") ? root.get("description").asText() : "";
        Standby standby;
        try {
            standby = root.hasNonNull("standby") ? Standby.parse(root.get("standby").asText()) : Standby.NONE;
        } catch (IllegalArgumentException e) {
            throw fail(e.getMessage());
        }
        JsonNode phaseNodes = root.get("phases");
        if (phaseNodes == null || !phaseNodes.isArray() || phaseNodes.isEmpty()) {
            throw fail("the plan needs a list of phases");
        }
        List<PlanPhase> phases = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < phaseNodes.size(); i++) {
            PlanPhase p = phase(phaseNodes.get(i), i + 1);
            if (!names.add(p.name())) {
                throw fail("two phases are called " + p.name());
            }
            phases.add(p);
        }
        if (phases.stream().noneMatch(PlanPhase::measured)) {
            throw fail("no phase is measured");
        }
        RecoveryRule recovery = recovery(root.get("recovery"), phases);
        ClusterSpec cluster = cluster(root.get("cluster"));
        if (cluster != null && standby == Standby.NONE && root.hasNonNull("standby")) {
            throw fail("a cluster has standbys: standby is sync or async with cluster (default sync)");
        }
        if (cluster != null && !root.hasNonNull("standby")) {
            standby = Standby.SYNC;
        }
        return new AdversityPlan(name, description, standby, recovery, phases, cluster, objectives(root.get("slo")));
    }

    /** {@code slo:} a list of objectives, as {@code --slo} takes them ({@code - p99(newOrder) <= 50ms}). */
    private List<Objective> objectives(JsonNode node) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray() || !java.util.stream.StreamSupport.stream(node.spliterator(), false)
                .allMatch(JsonNode::isTextual)) {
            throw fail("slo is a list of objectives, e.g. - p99(newOrder) <= 50ms");
        }
        try {
            return Objective.parseAll(java.util.stream.StreamSupport.stream(node.spliterator(), false)
                    .map(JsonNode::asText).toList());
        } catch (IllegalArgumentException e) {
            throw fail("slo: " + e.getMessage());
        }
    }

    private ClusterSpec cluster(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        try {
            if (node.isTextual()) {
                return new ClusterSpec(node.asText(), ClusterSpec.NODES, ClusterSpec.HAPROXY, ClusterSpec.MAXIMUM_LAG);
            }
            if (!node.isObject()) {
                throw fail("cluster is patroni, or a mapping (kind, nodes, route, maximum-lag-on-failover)");
            }
            keys(node, CLUSTER, "cluster");
            JsonNode nodes = node.get("nodes");
            if (nodes != null && !nodes.isIntegralNumber()) {
                throw fail("cluster: nodes must be a whole number (got " + nodes.asText() + ")");
            }
            return new ClusterSpec(node.hasNonNull("kind") ? node.get("kind").asText() : ClusterSpec.PATRONI,
                    nodes == null ? ClusterSpec.NODES : nodes.asInt(),
                    node.hasNonNull("route") ? node.get("route").asText() : ClusterSpec.HAPROXY,
                    node.hasNonNull("maximum-lag-on-failover")
                            ? ClusterSpec.bytes(node.get("maximum-lag-on-failover").asText()) : ClusterSpec.MAXIMUM_LAG);
        } catch (PlanException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw fail("cluster: " + e.getMessage());
        }
    }

    private PlanPhase phase(JsonNode node, int index) {
        String where = "phase " + index;
        if (!node.isObject()) {
            throw fail(where + ": a phase is a mapping with name and length");
        }
        String name = node.hasNonNull("name") ? node.get("name").asText() : null;
        if (name != null) {
            where = "phase " + name;
        }
        keys(node, PHASE, where);
        try {
            new PhasePlan(name, Duration.ofSeconds(1), true);
        } catch (IllegalArgumentException e) {
            throw fail(where + ": " + e.getMessage());
        }
        Duration length = duration(node, "length", where, null);
        if (length == null || length.isZero()) {
            throw fail(where + ": needs a positive length, like 60s or 5m");
        }
        boolean measured = !node.has("measured") || bool(node.get("measured"), where + ": measured");
        List<DisruptionSpec> disruptions = new ArrayList<>();
        JsonNode list = node.get("disruptions");
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                throw fail(where + ": disruptions is a list");
            }
            for (int i = 0; i < list.size(); i++) {
                disruptions.add(disruption(list.get(i), where + ", disruption " + (i + 1)));
            }
        }
        boolean untilRecovered = false;
        if (node.hasNonNull("until")) {
            if (!"recovered".equals(node.get("until").asText())) {
                throw fail(where + ": until takes one value, recovered (got '" + node.get("until").asText() + "')");
            }
            if (!disruptions.isEmpty()) {
                throw fail(where + ": a phase that ends once recovered has no disruptions; put them in a phase before");
            }
            untilRecovered = true;
        }
        return new PlanPhase(name, length, measured, untilRecovered, disruptions);
    }

    private DisruptionSpec disruption(JsonNode node, String position) {
        if (!node.isObject() || !node.hasNonNull("kind")) {
            throw fail(position + ": needs a kind (one of " + DisruptionKind.labels() + ")");
        }
        String label = node.get("kind").asText();
        DisruptionKind kind = DisruptionKind.byLabel(label).orElseThrow(() -> fail(position + ": unknown disruption '"
                + label + "'; known: " + DisruptionKind.labels()));
        String where = position + " (" + label + ")";
        Set<String> allowed = new HashSet<>(TIMING);
        allowed.addAll(kind.options().keySet());
        keys(node, allowed, where);
        Duration at = duration(node, "at", where, Duration.ZERO);
        Duration length = duration(node, "length", where, null);
        if (kind.needsLength() && (length == null || length.isZero())) {
            throw fail(where + ": needs a positive length");
        }
        if (!kind.takesLength() && length != null) {
            throw fail(where + ": runs to completion and takes no length");
        }
        if (length != null && length.isZero()) {
            throw fail(where + ": a length must be positive");
        }
        int repeat = 1;
        if (node.has("repeat")) {
            JsonNode r = node.get("repeat");
            if (!r.canConvertToInt() || !r.isIntegralNumber() || r.asInt() < 1) {
                throw fail(where + ": repeat must be a whole number of at least 1 (got " + r.asText() + ")");
            }
            repeat = r.asInt();
        }
        boolean random = node.has("random") && bool(node.get("random"), where + ": random");
        Duration every = duration(node, "every", where, null);
        if (repeat > 1 && !random && (every == null || every.isZero())) {
            throw fail(where + ": a repeated disruption needs every: TIME or random: true");
        }
        if (random && every != null) {
            throw fail(where + ": give every or random, not both");
        }
        Duration until = duration(node, "until", where, null);
        if (until != null && !random) {
            throw fail(where + ": until bounds random starts; add random: true");
        }
        if (until != null && until.compareTo(at) <= 0) {
            throw fail(where + ": until must come after at");
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (Map.Entry<String, String> o : kind.options().entrySet()) {
            JsonNode v = node.get(o.getKey());
            if (v != null && !v.isNull()) {
                options.put(o.getKey(), v.isArray() ? join(v) : v.asText());
            } else if (o.getValue().isEmpty() && !kind.optional(o.getKey())) {
                throw fail(where + ": needs " + o.getKey());
            }
        }
        String name = node.hasNonNull("name") ? node.get("name").asText() : label;
        if (!name.matches("[A-Za-z][A-Za-z0-9_.-]*")) {
            throw fail(where + ": name '" + name + "' must be a word (letters, digits, . - or _)");
        }
        DisruptionSpec spec = new DisruptionSpec(kind, name, at, length, repeat, every == null ? Duration.ZERO : every,
                random, until, options);
        checkOptions(spec, where);
        if (kind == DisruptionKind.NODE_KILL && length != null && !"true".equals(spec.option("patroni"))) {
            throw fail(where + ": a length needs patroni: true (a machine crash, booted after it); a killed "
                    + "PostgreSQL alone is started again by its Patroni");
        }
        if (kind == DisruptionKind.COMMAND && !spec.option("stop").isBlank() && length == null) {
            throw fail(where + ": a stop command needs a length (when to run it); without one the command is an event");
        }
        return spec;
    }

    /** Options whose values have a form: durations, shares, numbers, identifiers. */
    private void checkOptions(DisruptionSpec spec, String where) {
        for (String option : spec.kind().options().keySet()) {
            String value = spec.option(option);
            try {
                switch (option) {
                    case "every", "latency", "jitter", "promote-after", "hold-standby", "hold-replication" ->
                            Durations.parse(value);
                    case "node" -> {
                        if (!value.matches("leader|sync-standby|replica|n[1-9]")) {
                            throw new IllegalArgumentException("'" + value + "' is not a member: leader, sync-standby, "
                                    + "replica or a node's name (n1, n2...)");
                        }
                    }
                    case "to" -> {
                        if (!value.isBlank() && !value.matches("sync-standby|replica|n[1-9]")) {
                            throw new IllegalArgumentException("'" + value + "' is not a candidate: sync-standby, "
                                    + "replica or a node's name (n1, n2...)");
                        }
                    }
                    case "from" -> dev.gauntlet.sql.lab.NodeFaults.Side.parse(value);
                    case "patroni" -> {
                        if (!value.equals("true") && !value.equals("false")) {
                            throw new IllegalArgumentException("must be true or false (got " + value + ")");
                        }
                    }
                    case "timeout" -> {
                        if (Durations.parse(value).isZero()) {
                            throw new IllegalArgumentException("must be positive");
                        }
                    }
                    case "start" -> {
                        if (value.isBlank()) {
                            throw new IllegalArgumentException("is empty; give the command to run");
                        }
                    }
                    case "share" -> DisruptionSpec.share(value);
                    case "rate" -> {
                        if (!(Double.parseDouble(value) > 0)) {
                            throw new IllegalArgumentException("rate must be a positive number of KB/s");
                        }
                    }
                    case "table", "columns" -> {
                        for (String part : value.split(",")) {
                            if (!part.trim().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                                throw new IllegalArgumentException(option + " '" + value
                                        + "' must be plain identifiers (comma-separated for columns)");
                            }
                        }
                    }
                    case "hosts" -> {
                        if (spec.options().containsKey(option) && spec.listOption(option).isEmpty()) {
                            throw new IllegalArgumentException("an empty list singles out no server; leave hosts "
                                    + "out for every server");
                        }
                        for (String host : spec.listOption(option)) {
                            if (!host.matches("[A-Za-z0-9_.\\[\\]:-]+")) {
                                throw new IllegalArgumentException("'" + host + "' is not a server's name: n1, n2... "
                                        + "(its place in the URL), host:port or host");
                            }
                        }
                    }
                    case "plugin" -> {
                        if (!value.equals("test_decoding") && !value.equals("pgoutput")) {
                            throw new IllegalArgumentException("plugin must be test_decoding or pgoutput");
                        }
                    }
                    default -> { }
                }
            } catch (IllegalArgumentException e) {
                throw fail(where + ": " + option + ": " + e.getMessage());
            }
        }
    }

    private RecoveryRule recovery(JsonNode node, List<PlanPhase> phases) {
        String baseline = phases.stream().filter(PlanPhase::measured).findFirst().orElseThrow().name();
        String operation = null;
        Duration window = RecoveryRule.WINDOW;
        Duration hold = RecoveryRule.HOLD;
        double tolerance = RecoveryRule.TOLERANCE;
        double factor = RecoveryRule.LATENCY_FACTOR;
        if (node != null && !node.isNull()) {
            if (!node.isObject()) {
                throw fail("recovery is a mapping (baseline, operation, window, hold, tolerance, latency-factor)");
            }
            keys(node, RECOVERY, "recovery");
            if (node.hasNonNull("baseline")) {
                String b = node.get("baseline").asText();
                if (phases.stream().noneMatch(p -> p.name().equals(b))) {
                    throw fail("recovery: baseline phase '" + b + "' is not a phase of the plan");
                }
                baseline = b;
            }
            operation = node.hasNonNull("operation") ? node.get("operation").asText() : null;
            window = duration(node, "window", "recovery", window);
            hold = duration(node, "hold", "recovery", hold);
            try {
                if (node.hasNonNull("tolerance")) {
                    tolerance = DisruptionSpec.share(node.get("tolerance").asText());
                }
            } catch (IllegalArgumentException e) {
                throw fail("recovery: tolerance: " + e.getMessage());
            }
            if (node.hasNonNull("latency-factor")) {
                factor = node.get("latency-factor").asDouble(Double.NaN);
                if (!(factor >= 1)) {
                    throw fail("recovery: latency-factor must be a number of at least 1");
                }
            }
            if (window.isZero() || hold.isZero()) {
                throw fail("recovery: window and hold must be positive");
            }
        }
        String base = baseline;
        int baseAt = phases.indexOf(phases.stream().filter(p -> p.name().equals(base)).findFirst().orElseThrow());
        for (int i = 0; i <= baseAt; i++) {
            if (phases.get(i).untilRecovered()) {
                throw fail("phase " + phases.get(i).name() + ": until: recovered needs the baseline phase ("
                        + baseline + ") before it");
            }
        }
        return RecoveryRule.of(baseline, operation, window, hold, tolerance, factor).throughPhases(
                phases.stream().filter(PlanPhase::untilRecovered).map(PlanPhase::name).toList());
    }

    private Duration duration(JsonNode node, String key, String where, Duration absent) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            return absent;
        }
        try {
            Duration d = Durations.parse(v.asText());
            if (d.isNegative()) {
                throw new IllegalArgumentException("must not be negative");
            }
            return d;
        } catch (IllegalArgumentException e) {
            throw fail(where + ": " + key + ": " + e.getMessage());
        }
    }

    private boolean bool(JsonNode v, String where) {
        if (!v.isBoolean()) {
            throw fail(where + " must be true or false (got " + v.asText() + ")");
        }
        return v.asBoolean();
    }

    private void keys(JsonNode node, Set<String> allowed, String where) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!allowed.contains(key)) {
                throw fail(where + ": unknown key '" + key + "' (known: " + String.join(", ",
                        allowed.stream().sorted().toList()) + ")");
            }
        }
    }

    private static String join(JsonNode array) {
        List<String> parts = new ArrayList<>();
        array.forEach(e -> parts.add(e.asText()));
        return String.join(",", parts);
    }

    private PlanException fail(String message) {
        return new PlanException(file + ": " + message);
    }
}
