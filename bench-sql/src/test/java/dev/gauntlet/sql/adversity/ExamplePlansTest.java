package dev.gauntlet.sql.adversity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The example plans in {@code plans/examples} (Patroni, CockroachDB, Kubernetes with Chaos Mesh, a partition of one
 * node through Toxiproxy) and the Chaos Mesh manifests they apply ({@code deploy/chaos-mesh}): each plan reads,
 * schedules and lists as {@code --dry-run} prints it, each disruption one that runs against {@code --url}; every variable a plan or manifest uses is one Gauntlet sets or one the plan's header lists as the user's to
 * set; every manifest a plan names exists and is a Chaos Mesh v1alpha1 experiment.
 */
class ExamplePlansTest {

    private static final Path EXAMPLES = Path.of("..", "plans", "examples");
    private static final Path CHAOS_MESH = Path.of("..", "deploy", "chaos-mesh");
    /** {@code $NAME} or {@code ${NAME}}. */
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)");
    /** A header line listing a variable the user sets: {@code #   $NAME  what it is}. */
    private static final Pattern DOCUMENTED = Pattern.compile("^#\\s+\\$([A-Za-z_][A-Za-z0-9_]*)\\s");
    private static final Pattern MANIFEST = Pattern.compile("[\\w./-]*deploy/chaos-mesh/[\\w.-]+\\.yaml");
    private static final Set<String> CHAOS_KINDS = Set.of("PodChaos", "NetworkChaos", "IOChaos", "StressChaos");

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    private static Set<String> used(String text) {
        Set<String> names = new TreeSet<>();
        text.lines().filter(l -> !l.strip().startsWith("#")).forEach(l -> {
            Matcher m = VARIABLE.matcher(l);
            while (m.find()) {
                names.add(m.group(1));
            }
        });
        return names;
    }

    @Test
    void everyExamplePlanReadsSchedulesAndListsWhatItDoes() throws IOException {
        List<Path> plans = files(EXAMPLES);
        assertEquals(Set.of("patroni.yaml", "cockroachdb.yaml", "kubernetes-chaos-mesh.yaml",
                        "partition-one-node.yaml"),
                Set.copyOf(plans.stream().map(p -> p.getFileName().toString()).toList()));
        for (Path file : plans) {
            AdversityPlan plan = PlanFile.read(file);
            List<ScheduledDisruption> schedule = plan.schedule(1);
            assertFalse(schedule.isEmpty(), file.toString());
            for (ScheduledDisruption d : schedule) {
                DisruptionKind.Need need = d.spec().kind().need();
                assertTrue(need == DisruptionKind.Need.DRIVER_SHELL || need == DisruptionKind.Need.SQL
                        || need == DisruptionKind.Need.TOXIPROXY, file + ": " + d.name() + " must run against --url");
            }
            TargetHosts target = TargetHosts.ofUrl("jdbc:postgresql://node1:5432,node2:5432,node3:5432/tpcc")
                    .orElseThrow();
            plan.checkHosts(target);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            ScheduleListing.write(plan, file.toString(), schedule, target, file.getParent(),
                    new PrintStream(bytes, true, StandardCharsets.UTF_8));
            String listing = bytes.toString(StandardCharsets.UTF_8);
            for (ScheduledDisruption d : schedule) {
                String kind = d.spec().kind().label();
                assertTrue(listing.contains(d.name() + ": " + kind + " in phase " + d.phase()), listing);
                if (d.spec().kind() == DisruptionKind.COMMAND) {
                    assertTrue(listing.contains(CommandDisruption.oneLine(d.spec().option("start"))), listing);
                } else {
                    List<String> hosts = d.spec().listOption("hosts");
                    assertTrue(listing.contains("    on:   " + (hosts.isEmpty() ? "every server: " + target.named()
                            : target.named(target.positions(hosts))) + "\n"), listing);
                }
            }
        }
    }

    @Test
    void everyVariableIsGauntletsOrListedInThePlansHeaderAndEveryManifestExists() throws IOException {
        Set<String> applied = new HashSet<>();
        for (Path file : files(EXAMPLES)) {
            String text = Files.readString(file);
            Set<String> documented = new HashSet<>(CommandEnvironment.NAMES);
            text.lines().map(DOCUMENTED::matcher).filter(Matcher::find).forEach(m -> documented.add(m.group(1)));
            Set<String> used = used(text);
            Matcher m = MANIFEST.matcher(text);
            while (m.find()) {
                Path manifest = file.getParent().resolve(m.group()).normalize();
                assertTrue(Files.isRegularFile(manifest), file + " applies " + m.group() + ", which does not exist");
                applied.add(manifest.getFileName().toString());
                used.addAll(used(Files.readString(manifest)));
            }
            Set<String> unknown = new TreeSet<>(used);
            unknown.removeAll(documented);
            assertTrue(unknown.isEmpty(), file + " uses variables neither Gauntlet sets nor its header lists: "
                    + unknown);
            Set<String> unused = new TreeSet<>(documented);
            unused.removeAll(used);
            unused.removeAll(CommandEnvironment.NAMES);
            assertTrue(unused.isEmpty(), file + " lists variables it never uses: " + unused);
        }
        Set<String> shipped = new TreeSet<>(files(CHAOS_MESH).stream().map(p -> p.getFileName().toString()).toList());
        assertEquals(shipped, new TreeSet<>(applied), "every manifest is applied by a plan");
    }

    @Test
    void everyManifestIsAChaosMeshExperiment() throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        Set<String> kinds = new HashSet<>();
        for (Path file : files(CHAOS_MESH)) {
            // As envsubst leaves it with every variable set.
            String text = VARIABLE.matcher(Files.readString(file).replace("${GAUNTLET_LENGTH}", "30"))
                    .replaceAll("x");
            JsonNode m = yaml.readTree(text);
            assertEquals("chaos-mesh.org/v1alpha1", m.path("apiVersion").asText(), file.toString());
            assertTrue(CHAOS_KINDS.contains(m.path("kind").asText()), file.toString());
            kinds.add(m.path("kind").asText());
            assertTrue(m.path("metadata").path("name").asText().matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?"), file.toString());
            assertTrue(m.path("spec").path("selector").path("namespaces").isArray(), file + ": spec.selector");
            assertTrue(Set.of("one", "all").contains(m.path("spec").path("mode").asText()), file + ": spec.mode");
            if (!m.path("spec").path("action").asText().equals("pod-kill")) {
                assertTrue(m.path("spec").path("duration").asText().matches("30s"), file + ": spec.duration");
            }
        }
        assertEquals(CHAOS_KINDS, kinds);
    }
}
