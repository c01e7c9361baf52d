package dev.gauntlet.tpcc;

import dev.gauntlet.core.host.Executables;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.gauntlet.core.prometheus.PrometheusEndpoint;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * deploy/: the Kubernetes manifests are valid against Kubernetes' schemas (kubernetes-validate, when installed), the
 * options the Jobs pass are options bench-tpcc has, and every metric the Grafana dashboard queries is one a driver
 * serves.
 */
class DeploymentManifestsTest {

    static final Path DEPLOY = Path.of("..", "deploy");
    static final Path KUBERNETES = DEPLOY.resolve("kubernetes");

    static List<Path> manifests() throws IOException {
        try (Stream<Path> files = Files.list(KUBERNETES)) {
            return files.filter(p -> p.toString().endsWith(".yaml"))
                    .filter(p -> !p.getFileName().toString().equals("kustomization.yaml")).sorted().toList();
        }
    }

    @Test
    void manifestsAreValidKubernetesObjects() throws Exception {
        List<Path> manifests = manifests();
        assertEquals(7, manifests.size(), manifests.toString());
        String validator = Executables.find("kubernetes-validate").map(Path::toString).orElse(null);
        Assumptions.assumeTrue(validator != null, "kubernetes-validate is not installed (pip install kubernetes-validate;"
                + " .ci/run installs it): the manifests' schema validation is skipped");
        List<String> command = new ArrayList<>(List.of(validator, "--strict"));
        manifests.forEach(m -> command.add(m.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, p.exitValue(), output);
        assertFalse(output.contains("ERROR"), output);
    }

    @Test
    void theJobsPassOnlyOptionsBenchTpccHas() throws Exception {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        CommandLine tpcc = dev.gauntlet.core.cli.GauntletCommandLine.create(new TpccCommand());
        int jobs = 0;
        for (Path m : manifests()) {
            JsonNode doc = yaml.readTree(m.toFile());
            if (!"Job".equals(doc.path("kind").asText())) {
                continue;
            }
            jobs++;
            JsonNode container = doc.path("spec").path("template").path("spec").path("containers").get(0);
            List<String> given = new ArrayList<>();
            container.path("args").forEach(a -> given.add(a.asText()));
            List<String> args = given;
            if (container.has("command")) {
                // The merge Job runs through a shell (for the glob): its one argument is the command line.
                args = List.of(args.get(0).substring(args.get(0).indexOf("TpccCommand") + "TpccCommand".length())
                        .strip().split("\\s+"));
            }
            CommandLine sub = tpcc.getSubcommands().get(args.get(0));
            assertTrue(sub != null, m + ": no subcommand " + args.get(0));
            if (args.get(0).equals("report")) {
                sub = sub.getSubcommands().get(args.get(1));
            }
            for (String a : args) {
                if (a.startsWith("--")) {
                    assertTrue(sub.getCommandSpec().findOption(a) != null, m + ": " + sub.getCommandName() + " has no " + a);
                }
            }
            // Every $(VAR) a Job uses is a variable it defines (or the one the Indexed Job's controller sets).
            Set<String> defined = new TreeSet<>(Set.of("JOB_COMPLETION_INDEX"));
            container.path("env").forEach(e -> defined.add(e.path("name").asText()));
            Matcher v = Pattern.compile("\\$\\(([A-Z_]+)\\)").matcher(String.join(" ", args));
            while (v.find()) {
                assertTrue(defined.contains(v.group(1)), m + " uses $(" + v.group(1) + ") but defines only " + defined);
            }
        }
        assertEquals(3, jobs);
        JsonNode drivers = yaml.readTree(KUBERNETES.resolve("drivers-job.yaml").toFile());
        assertEquals("Indexed", drivers.path("spec").path("completionMode").asText());
        assertEquals(drivers.path("spec").path("completions").asInt(), drivers.path("spec").path("parallelism").asInt());
        JsonNode settings = yaml.readTree(KUBERNETES.resolve("run-settings.yaml").toFile());
        assertEquals(drivers.path("spec").path("completions").asText(), settings.path("data").path("WORKERS").asText(),
                "the drivers Job's completions and WORKERS must agree");
    }

    /**
     * The drivers run through the plan of the ConfigMap {@code gauntlet-plan}: mounted where {@code --plan} reads it,
     * and a plan every driver of a split run can follow against a database given by URL (checked by a dry run of
     * worker 1 of 4: nothing is connected to).
     */
    @Test
    void theDriversFollowThePlanOfTheirConfigMap(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        JsonNode plan = yaml.readTree(KUBERNETES.resolve("plan.yaml").toFile());
        assertEquals("ConfigMap", plan.path("kind").asText());
        JsonNode pod = yaml.readTree(KUBERNETES.resolve("drivers-job.yaml").toFile()).path("spec").path("template")
                .path("spec");
        JsonNode container = pod.path("containers").get(0);
        List<String> args = new ArrayList<>();
        container.path("args").forEach(a -> args.add(a.asText()));
        Path given = Path.of(args.get(args.indexOf("--plan") + 1));
        String volume = null;
        for (JsonNode mount : container.path("volumeMounts")) {
            if (given.getParent().equals(Path.of(mount.path("mountPath").asText()))) {
                volume = mount.path("name").asText();
            }
        }
        assertTrue(volume != null, "--plan " + given + " is not in a mounted volume");
        String configMap = null;
        for (JsonNode v : pod.path("volumes")) {
            if (v.path("name").asText().equals(volume)) {
                configMap = v.path("configMap").path("name").asText();
            }
        }
        assertEquals(plan.path("metadata").path("name").asText(), configMap, "the plan's volume is its ConfigMap");
        String text = plan.path("data").path(given.getFileName().toString()).asText();
        assertFalse(text.isBlank(), "the ConfigMap has no key " + given.getFileName());

        Path file = Files.writeString(tmp.resolve("plan.yaml"), text);
        AdversityRunTest.Outcome dry = PlanDryRunTest.tpcc("run", "--plan", file.toString(), "--dry-run",
                "--url", "jdbc:postgresql://postgres.example.svc:5432/tpcc", "--worker", "1/4",
                "--start-at", "2026-11-25T15:00:00Z", "--warehouses", "8", "--clients", "32");
        assertEquals(0, dry.code(), dry.err() + dry.out());
    }

    @Test
    void theGrafanaDashboardQueriesMetricsADriverServes() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DEPLOY.resolve("grafana/gauntlet-run.json").toFile());
        Set<String> queried = new TreeSet<>();
        Pattern metric = Pattern.compile("gauntlet_[a-z_]+");
        List<JsonNode> targets = new ArrayList<>();
        dashboard.path("panels").forEach(p -> p.path("targets").forEach(targets::add));
        dashboard.path("annotations").path("list").forEach(targets::add);
        assertTrue(targets.size() >= 10, "panels with queries: " + targets.size());
        for (JsonNode t : targets) {
            Matcher m = metric.matcher(t.path("expr").asText());
            while (m.find()) {
                queried.add(m.group());
            }
        }
        Histogram latency = new Histogram(3);
        latency.recordValue(4_000_000);
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start("tpcc", "0/1", 0)) {
            endpoint.onPhaseStart("measure", 0);
            endpoint.onInterval(new Interval(1, 1, "measure",
                    Map.of("newOrder", IntervalOperation.of(latency, 1, 0, 1, Map.of())), 1, 1, Map.of(),
                    Map.of("lagMillis", 3L), Map.of("connection", 1L)), Map.of(), 1);
            String scraped = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + endpoint.port() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Set<String> served = new TreeSet<>();
            Matcher m = Pattern.compile("(?m)^(gauntlet_[a-z_]+)[{ ]").matcher(scraped);
            while (m.find()) {
                served.add(m.group(1));
            }
            assertTrue(served.containsAll(queried), "queried " + queried + ", served " + served);
        }
    }
}
