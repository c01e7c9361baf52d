package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentTest {

    @Test
    void variantsParseNameAndStatements() {
        Variant v = Variant.parse("off=ALTER SYSTEM SET synchronous_commit = off; SELECT pg_reload_conf();");
        assertEquals("off", v.name());
        assertEquals(List.of("ALTER SYSTEM SET synchronous_commit = off", "SELECT pg_reload_conf()"), v.statements());
        assertEquals(List.of(), Variant.parse("baseline=").statements());
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("no equals sign"));
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("a/b=SELECT 1"));
    }

    @Test
    void variantsKnowWhichSettingsTheyAskFor() {
        Variant v = Variant.parse("x=ALTER SYSTEM SET synchronous_commit = off; SELECT pg_reload_conf(); "
                + "alter system set work_mem to '64MB'; SET CLUSTER SETTING kv.transaction.write_buffering.enabled = true");
        assertEquals(java.util.Map.of("synchronous_commit", "off", "work_mem", "64MB",
                "kv.transaction.write_buffering.enabled", "true"), v.requestedSettings());
    }

    @Test
    void theShippedExperimentsParse() throws Exception {
        Path dir = Path.of("experiments");
        try (var files = Files.list(dir)) {
            List<Path> all = files.filter(p -> p.toString().endsWith(".exp")).toList();
            assertTrue(all.size() >= 3, "shipped experiments: " + all);
            for (Path p : all) {
                Experiment e = Experiment.read(p);
                assertTrue(e.variants().size() >= 2, p.toString());
            }
        }
    }

    @Test
    void badExperimentFilesNameTheLine(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("bad.exp");
        Files.writeString(f, "title: t\nvariant a = SELECT 1\nbogus line\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Experiment.read(f));
        assertTrue(e.getMessage().contains("bad.exp:3"), e.getMessage());
        Files.writeString(f, "variant a = SELECT 1\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Experiment.read(f)).getMessage()
                .contains("at least two"));
        Files.writeString(f, "variant a = SELECT 1\nvariant a = SELECT 2\n");
        assertThrows(IllegalArgumentException.class, () -> Experiment.read(f));
    }
}
