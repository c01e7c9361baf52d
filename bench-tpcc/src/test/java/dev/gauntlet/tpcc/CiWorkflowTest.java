package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * deploy/ci/github-actions.yml, the example CI workflow: it runs on every push, every bench-tpcc command it types
 * names a subcommand and options bench-tpcc has, every shell variable it reads is one the job defines or the script
 * sets, every {@code ${{ }}} expression reads a context Actions has, and the gate is there and is kept even when it
 * fails.
 */
class CiWorkflowTest {

    private static final Path WORKFLOW = DeploymentManifestsTest.DEPLOY.resolve("ci").resolve("github-actions.yml");
    private static final String JAR = "java -jar bench-tpcc/target/bench-tpcc.jar ";

    @Test
    void theWorkflowRunsOnEveryPushAndTypesOnlyWhatBenchTpccHas() throws Exception {
        JsonNode workflow = new ObjectMapper(new YAMLFactory()).readTree(WORKFLOW.toFile());
        // YAML 1.1 reads the key "on" as true: Jackson's YAML gives it as "true".
        JsonNode on = workflow.has("on") ? workflow.get("on") : workflow.get("true");
        assertNotNull(on, "no trigger");
        assertTrue(on.has("push"), "runs on every push");
        JsonNode job = workflow.path("jobs").path("tpcc");
        Set<String> defined = new TreeSet<>();
        job.path("env").fieldNames().forEachRemaining(defined::add);
        CommandLine tpcc = dev.gauntlet.core.cli.GauntletCommandLine.create(new TpccCommand());
        List<String> commands = new ArrayList<>();
        boolean gateKept = false;
        for (JsonNode step : job.path("steps")) {
            String script = step.path("run").asText("");
            Set<String> assigned = new TreeSet<>();
            Matcher assignment = Pattern.compile("(?m)^\\s*(?:if .*then )?([a-z_]+)=").matcher(script);
            while (assignment.find()) {
                assigned.add(assignment.group(1));
            }
            Matcher read = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)").matcher(script.replaceAll("\\$\\{\\{[^}]*}}", ""));
            while (read.find()) {
                assertTrue(defined.contains(read.group(1)) || assigned.contains(read.group(1)),
                        step.path("name").asText() + " reads $" + read.group(1) + " but the job defines only " + defined);
            }
            for (String line : script.replace("\\\n", " ").split("\n")) {
                if (line.strip().startsWith(JAR)) {
                    commands.add(line.strip().substring(JAR.length()));
                }
            }
            if (step.path("uses").asText().startsWith("actions/cache/save") || step.path("uses").asText()
                    .startsWith("actions/upload-artifact")) {
                assertEquals("always()", step.path("if").asText(), step.path("name").asText()
                        + " must run when the gate fails, or the failing run is lost from the history");
                gateKept = true;
            }
        }
        assertTrue(gateKept);
        assertEquals(3, commands.size(), commands.toString());
        for (String command : commands) {
            String[] words = command.split("\\s+");
            CommandLine sub = tpcc.getSubcommands().get(words[0]);
            assertNotNull(sub, "bench-tpcc has no subcommand " + words[0]);
            if (words[0].equals("report")) {
                sub = sub.getSubcommands().get(words[1]);
                assertNotNull(sub, "report has no subcommand " + words[1]);
            }
            for (String w : words) {
                if (w.startsWith("--")) {
                    assertNotNull(sub.getCommandSpec().findOption(w), sub.getCommandName() + " has no option " + w);
                }
            }
        }
        assertTrue(commands.stream().anyMatch(c -> c.startsWith("report history") && c.contains("--fail-on-regression")),
                "the gate: " + commands);
        assertTrue(commands.stream().anyMatch(c -> c.startsWith("run ") && c.contains("--label")), commands.toString());
        // Expressions read only contexts Actions has.
        Matcher expression = Pattern.compile("\\$\\{\\{\\s*([a-z_]+)\\.").matcher(java.nio.file.Files.readString(WORKFLOW));
        while (expression.find()) {
            assertTrue(Set.of("github", "secrets", "env", "runner").contains(expression.group(1)), expression.group());
        }
    }
}
