package dev.gauntlet.core.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.cli.Benchmark;
import dev.gauntlet.core.cli.RunSpec;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.SyntheticTarget;
import dev.gauntlet.core.run.Workload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A 2 x 2 matrix runs every cell, repeated and alternating, and writes one comparison of the four. */
class ExperimentRunnerTest {

    @Test
    void aTwoByTwoMatrixWritesOneComparison(@TempDir Path out) throws Exception {
        Experiment matrix = new Experiment("schema x pool", List.of(
                Dimension.of("schema", List.of("fast", "slow")), Dimension.of("pool", List.of("direct", "pooled"))),
                List.of(), 2);
        List<String> order = new ArrayList<>();
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        // Levels without SQL change no server: the state has nothing to apply and every wanted setting holds.
        ServerState noServer = new ServerState() {
            @Override
            public void apply(List<String> statements) {
                assertTrue(statements.isEmpty(), statements.toString());
            }

            @Override
            public java.util.Map<String, String> inEffect(java.util.Map<String, String> wanted) {
                return wanted;
            }
        };
        ExperimentRunner.Outcome outcome = new ExperimentRunner(matrix, noServer, 5, quiet)
                .run(out, (cell, inEffect, dir) -> {
                    order.add(cell.label());
                    long millis = cell.level("schema").orElseThrow().name().equals("slow") ? 4 : 1;
                    Workload<Integer> w = Workload.repeating(Operation.of("op", s -> Thread.sleep(millis)));
                    RunPlan plan = RunPlan.closedLoop(1, Duration.ofMillis(300));
                    return new Benchmark("bench-test", "test", List.of("run"), quiet).run(RunSpec.of(plan, w,
                            cell.level("pool").orElseThrow().name().equals("pooled") ? SyntheticTarget.pooled(1)
                                    : SyntheticTarget.direct())
                            .variant(cell.label()).parameters(cell.runParameters(inEffect)).out(dir));
                }, "Synthetic cells.");

        assertEquals(List.of("fast / direct", "fast / pooled", "slow / direct", "slow / pooled",
                "fast / direct", "fast / pooled", "slow / direct", "slow / pooled"), order, "A B C D A B C D");
        assertTrue(outcome.failures().isEmpty(), outcome.failures().toString());
        assertEquals(4, outcome.cells().size());
        outcome.cells().forEach(g -> assertEquals(2, g.size(), g.label()));
        RunResult one = ResultFile.read(out.resolve("slow+pooled").resolve("run-2"));
        assertEquals("slow", one.parameters().get("schema"));
        String md = Files.readString(out.resolve("comparison.md"));
        assertTrue(md.contains("## `fast / direct` vs `slow / pooled`"), md);
        assertEquals(3, md.split("\n## `fast / direct` vs ", -1).length - 1, "each other cell against the first");
        assertTrue(md.contains("- schema: `fast`, `slow`") && md.contains("- pool: `direct`, `pooled`"), md);
        assertTrue(!md.contains("Not like for like"), "the varied dimensions are the experiment's variables\n" + md);
    }
}
