package dev.gauntlet.script.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pgbench 15's command line as pgbench reads it: getopt's forms, pgbench's defaults, its refusals in its words. */
class PgbenchArgumentsTest {

    private static PgbenchSettings read(Map<String, String> env, String... args) {
        return PgbenchArguments.read(List.of(args), env, new ArrayList<>());
    }

    private static List<String> refusal(String... args) {
        PgbenchExit e = assertThrows(PgbenchExit.class, () -> read(Map.of(), args));
        assertEquals(1, e.status(), String.join("\n", e.lines()));
        return e.lines();
    }

    @Test
    void pgbenchsDefaultsAreOneClientTenTransactionsTheTpcbLikeScript() {
        PgbenchSettings s = read(Map.of("PGDATABASE", "bench"));
        assertEquals(1, s.clients);
        assertEquals(1, s.jobs);
        assertEquals(0, s.time);
        assertEquals("simple", s.protocol);
        assertEquals(List.of(new PgbenchSettings.ScriptArgument(true, "tpcb-like", 1)), s.scripts());
        assertEquals("bench", s.dbName());
        assertFalse(s.init());
    }

    @Test
    void getoptsFormsBundledAbbreviatedAndPermuted() {
        PgbenchSettings s = read(Map.of(), "-nc4", "mydb", "--jobs=2", "--tran", "7", "-Dx=1", "-U", "me");
        assertTrue(s.noVacuum);
        assertEquals(4, s.clients);
        assertEquals(2, s.jobs);
        assertEquals(7, s.transactions);
        assertEquals(Map.of("x", "1"), s.defines);
        assertEquals("mydb", s.dbName());
        assertEquals("me", s.username());
    }

    @Test
    void theDatabaseFromTheArgumentThenPgdatabaseThenPguser() {
        assertEquals("a", read(Map.of("PGDATABASE", "b", "PGUSER", "c"), "a").dbName());
        assertEquals("b", read(Map.of("PGDATABASE", "b", "PGUSER", "c")).dbName());
        assertEquals("c", read(Map.of("PGUSER", "c")).dbName());
    }

    @Test
    void badValuesAreRefusedInPgbenchsWords() {
        assertEquals(List.of("pgbench: error: invalid value \"three\" for option -c/--clients"), refusal("-c", "three"));
        assertEquals(List.of("pgbench: error: specify either a number of transactions (-t) or a duration (-T), not both"),
                refusal("-t", "5", "-T", "3"));
        assertEquals(List.of("pgbench: error: invalid query mode (-M): \"no-such-mode\""), refusal("-M", "no-such-mode"));
        assertEquals("pgbench: hint: Try \"pgbench --help\" for more information.", refusal("--no-such-option").get(1));
        assertEquals(List.of("pgbench: error: some of the specified options cannot be used in initialization (-i) mode"),
                refusal("-i", "-c", "2"));
    }

    @Test
    void aScriptIsParsedExpressionsIncludedBeforeAnythingConnects(@TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.sql"), "\\set i 1 +\nSELECT :i;\n");
        List<String> lines = refusal("-n", "-t", "1", "-f", bad.toString());
        assertEquals("pgbench: error: " + bad + ":1: syntax error in command \"set\"", lines.get(0));
        assertEquals("\\set i 1 +", lines.get(1));
    }

    @Test
    void aStatementWithTooManyParametersIsRefusedBeforeConnectingOutsideTheSimpleMode(@TempDir Path dir)
            throws Exception {
        StringBuilder sql = new StringBuilder("SELECT 0");
        for (int i = 0; i < 256; i++) {
            sql.append(", :v");
        }
        Path many = Files.writeString(dir.resolve("many.sql"), "\\set v 1\n" + sql + ";\n");
        read(Map.of(), "-n", "-t", "1", "-f", many.toString()); // the simple mode writes values into the text
        assertTrue(refusal("-n", "-t", "1", "-M", "prepared", "-f", many.toString()).get(0)
                .startsWith("pgbench: error: statement has too many arguments (maximum is 255): SELECT 0"));
    }
}
