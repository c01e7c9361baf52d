package dev.gauntlet.core.experiment;

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
        Level v = Level.parse("off=ALTER SYSTEM SET synchronous_commit = off; SELECT pg_reload_conf();");
        assertEquals("off", v.name());
        assertEquals(List.of("ALTER SYSTEM SET synchronous_commit = off", "SELECT pg_reload_conf()"), v.statements());
        assertEquals(List.of(), Level.parse("baseline=").statements());
        assertThrows(IllegalArgumentException.class, () -> Level.parse("no equals sign"));
        assertThrows(IllegalArgumentException.class, () -> Level.parse("a/b=SELECT 1"));
    }

    @Test
    void variantsKnowWhichSettingsTheyAskFor() {
        Level v = Level.parse("x=ALTER SYSTEM SET synchronous_commit = off; SELECT pg_reload_conf(); "
                + "alter system set work_mem to '64MB'; SET CLUSTER SETTING kv.transaction.write_buffering.enabled = true");
        assertEquals(java.util.Map.of("synchronous_commit", "off", "work_mem", "64MB",
                "kv.transaction.write_buffering.enabled", "true"), v.requestedSettings());
    }

    @Test
    void aMatrixHasACellPerCombinationFirstDimensionSlowest(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("matrix.exp");
        Files.writeString(f, "title: schema x pool\nlevel schema jsonb = \nlevel schema text =\n"
                + "level pool direct =\nlevel pool pooled = SET x = 1\n");
        Experiment e = Experiment.read(f).withRepeat(3);
        assertEquals(List.of("jsonb / direct", "jsonb / pooled", "text / direct", "text / pooled"),
                e.cells().stream().map(Cell::label).toList());
        Cell c = e.cells().get(1);
        assertEquals("jsonb+pooled", c.directoryName());
        assertEquals(java.util.Map.of("schema", "jsonb", "pool", "pooled"), c.coordinates());
        assertEquals(List.of("SET x = 1"), c.statements());
        assertEquals("pooled", c.level("pool").orElseThrow().name());
        assertEquals(3, e.repeat());
        assertThrows(IllegalArgumentException.class, () -> e.withRepeat(0));
        assertThrows(IllegalArgumentException.class,
                () -> new Experiment("one cell", List.of(Dimension.of("pool", List.of("direct"))), List.of(), 1));
    }

    @Test
    void badExperimentFilesNameTheLine(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("bad.exp");
        Files.writeString(f, "title: t\nvariant a = SELECT 1\nbogus line\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Experiment.read(f));
        assertTrue(e.getMessage().contains("bad.exp:3"), e.getMessage());
        Files.writeString(f, "variant a = SELECT 1\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Experiment.read(f)).getMessage()
                .contains("at least two cells"));
        Files.writeString(f, "variant a = SELECT 1\nvariant a = SELECT 2\n");
        assertThrows(IllegalArgumentException.class, () -> Experiment.read(f));
    }
}
