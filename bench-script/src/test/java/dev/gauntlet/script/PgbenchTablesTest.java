package dev.gauntlet.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.script.schema.PartitionMethod;
import dev.gauntlet.script.schema.PgbenchSchema;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.HelpText;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The generic {@code init}, {@code check} and {@code drop} over {@link PgbenchTables}, typed as a user types them:
 * each of pgbench's init options made and read back, a second init refused, drop leaving nothing, bad and unsupported
 * options refused in one line with pgbench's words before anything is touched.
 */
@ExtendWith(PostgresExtension.class)
class PgbenchTablesTest {

    private static TestDatabase db;

    @BeforeAll
    static void database(TestDatabase server) {
        db = server.freshDatabase("pgtables_init");
    }

    static CommandRun cli(TestDatabase db, String command, String... args) {
        return CommandRun.of(new TablesOnlyCommand(), db, command, args);
    }

    static PgbenchSchema.Loaded loaded(TestDatabase db) throws SQLException {
        try (Connection c = db.connect()) {
            return PgbenchSchema.loaded(c);
        }
    }

    /** The tables every option makes are read back as made, replacing what was there (--drop). */
    @ParameterizedTest(name = "init {0}")
    @CsvSource(delimiter = ';', value = {
            "'';                                  1; 100; 0; NONE;  false; false",
            "-s 2 --foreign-keys;                 2; 100; 0; NONE;  true;  false",
            "--unlogged-tables -F 80 -n -q;       1; 80;  0; NONE;  false; true",
            "--scale=2 --partitions 3;            2; 100; 3; RANGE; false; false",
            "--partitions 4 --partition-method HASH --unlogged-tables --fillfactor 90; 1; 90; 4; HASH; false; true",
            "-s 2 --partitions 2 --partition-method range --foreign-keys -F 10; 2; 10; 2; RANGE; true; false"})
    void initMakesWhatItsOptionsSayAndLoadedReadsItBack(String options, int scale, int fillfactor, int partitions,
            PartitionMethod method, boolean foreignKeys, boolean unlogged) throws Exception {
        String[] args = ("--drop " + options).trim().split("\\s+");
        CommandRun init = cli(db, "init", args);
        assertEquals(0, init.code(), init.err() + init.out());
        PgbenchSchema.Loaded expected = new PgbenchSchema.Loaded(scale, fillfactor, partitions, method, foreignKeys,
                unlogged);
        assertEquals(expected, loaded(db));
        assertTrue(init.out().contains("Loaded " + new PgbenchTables().describe(expected) + " in "), init.out());
        assertTrue(init.out().contains("done in ") && init.out().contains("client-side generate"), init.out());
        assertEquals(options.contains("-n") ? 0 : 1, init.out().split("analyze", -1).length - 1, init.out());
        CommandRun check = cli(db, "check");
        assertEquals(0, check.code(), check.err() + check.out());
    }

    @Test
    void describeNamesWhatIsNotPgbenchsDefault() {
        PgbenchTables tables = new PgbenchTables();
        assertEquals("the pgbench tables at scale 1 (100,000 accounts)",
                tables.describe(new PgbenchSchema.Loaded(1, 100, 0, PartitionMethod.NONE, false, false)));
        assertEquals("the pgbench tables at scale 20,000 (2,000,000,000 accounts, 8 hash partitions, foreign keys, "
                + "unlogged, fillfactor 90)", tables.describe(new PgbenchSchema.Loaded(20_000, 90, 8,
                PartitionMethod.HASH, true, true)));
    }

    @Test
    void aSecondInitIsRefusedAndDropLeavesNothing(TestDatabase server) throws Exception {
        TestDatabase twice = server.freshDatabase("pgtables_twice");
        CommandRun first = cli(twice, "init", "--partitions", "2", "--foreign-keys");
        assertEquals(0, first.code(), first.err());
        CommandRun second = cli(twice, "init", "-s", "2");
        assertEquals(2, second.code(), second.out());
        assertEquals("init: already loaded: the pgbench tables at scale 1 (100,000 accounts, 2 range partitions, "
                + "foreign keys); init --drop replaces it", second.err().strip());
        assertEquals(1, loaded(twice).scale(), "the refused init changed nothing");

        CommandRun drop = cli(twice, "drop");
        assertEquals(0, drop.code(), drop.err());
        assertTrue(drop.out().contains("Dropped the pgbench tables."), drop.out());
        assertNull(loaded(twice));
        try (Connection c = twice.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_class WHERE relname LIKE 'pgbench%'")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "no table, partition or index is left");
        }
        CommandRun check = cli(twice, "check");
        assertEquals(2, check.code(), check.out());
        assertTrue(check.err().contains("no pgbench tables at "), check.err());
        CommandRun again = cli(twice, "drop");
        assertEquals(0, again.code(), "dropping nothing is fine, as pgbench's d step: " + again.err());
    }

    /** pgbench's bounds and words; unsupported pgbench options by name; all before anything is connected to. */
    @ParameterizedTest(name = "init {0}")
    @CsvSource(delimiter = ';', value = {
            "-F 5;                          -F/--fillfactor must be in range 10..100",
            "--fillfactor=101;              -F/--fillfactor must be in range 10..100",
            "-s 0;                          -s/--scale must be in range 1..2147483647",
            "--partitions -1;               --partitions must be in range 0..2147483647",
            "--partition-method list;       invalid partition method, expecting \"range\" or \"hash\", got: \"list\"",
            "--partition-method hash;       --partition-method requires greater than zero --partitions",
            "-I dtg;                        -I/--init-steps is not supported: init runs pgbench's default steps",
            "--init-steps=dtgvp;            -I/--init-steps is not supported",
            "--tablespace fast;             --tablespace is not supported",
            "--index-tablespace fast;       --index-tablespace is not supported",
            "--partitions 2 --no-such-option; Unknown option: '--no-such-option'"})
    void badAndUnsupportedOptionsAreRefusedInOneLine(String options, String message, TestDatabase server)
            throws Exception {
        TestDatabase fresh = server.freshDatabase("pgtables_refused");
        CommandRun init = cli(fresh, "init", options.split("\\s+"));
        assertEquals(2, init.code(), init.out() + init.err());
        List<String> lines = init.err().strip().lines().toList();
        assertEquals(1, lines.size(), init.err());
        assertTrue(lines.get(0).startsWith("init: " + message), lines.get(0));
        assertNull(loaded(fresh), "nothing was created");
    }

    @Test
    void everyHelpFormatsAndEndsWithExamples() {
        HelpText.assertEveryCommandEndsWithExamples(new TablesOnlyCommand());
        String help = HelpText.all(dev.gauntlet.core.cli.GauntletCommandLine.create(new TablesOnlyCommand())).stream()
                .filter(p -> p.command().endsWith(" init")).findFirst().orElseThrow().text();
        assertTrue(help.contains("--partition-method=range|hash") && help.contains("-F, --fillfactor=NUM"), help);
        assertTrue(help.contains("-I/--init-steps, --tablespace and --index-tablespace are refused"), help);
    }
}
