package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.experiment.Experiment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The experiment files bench-tpcc ships parse, and each compares at least two server states. */
class ShippedExperimentsTest {

    @Test
    void theShippedExperimentsParse() throws Exception {
        try (var files = Files.list(Path.of("experiments"))) {
            List<Path> all = files.filter(p -> p.toString().endsWith(".exp")).toList();
            assertTrue(all.size() >= 3, "shipped experiments: " + all);
            for (Path p : all) {
                Experiment e = Experiment.read(p);
                assertTrue(e.cells().size() >= 2, p.toString());
                assertTrue(e.cells().stream().anyMatch(c -> !c.requestedSettings().isEmpty()),
                        p + " sets a server setting that can be read back");
            }
        }
    }
}
