package dev.gauntlet.script.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The built-in scripts against what pgbench 15 prints for them (recorded by run-bad-scripts.sh). */
class BuiltinScriptsTest {

    @Test
    void textsAreWhatShowScriptPrints() {
        for (BuiltinScript b : BuiltinScripts.all()) {
            assertEquals(Conformance.resource("show-script/" + b.name() + ".txt"), b.showScript(), b.name());
        }
    }

    @Test
    void listingIsWhatBuiltinListPrints() {
        assertEquals(Conformance.resource("builtin-list.txt"), BuiltinScripts.listing());
    }

    @Test
    void namesAndOptions() {
        assertEquals(List.of("tpcb-like", "simple-update", "select-only"),
                BuiltinScripts.all().stream().map(BuiltinScript::name).toList());
        assertSame(BuiltinScripts.TPCB_LIKE, BuiltinScripts.find("tpcb-like"));
        assertSame(BuiltinScripts.TPCB_LIKE, BuiltinScripts.find("t"));
        assertSame(BuiltinScripts.SIMPLE_UPDATE, BuiltinScripts.find("si"));
        assertSame(BuiltinScripts.SELECT_ONLY, BuiltinScripts.find("se"));
        assertEquals("<builtin: TPC-B (sort of)>", BuiltinScripts.TPCB_LIKE.parse(1).name());
    }

    @Test
    void unknownAndAmbiguousNamesAreRefusedWithTheList() {
        ScriptFileException none = assertThrows(ScriptFileException.class, () -> BuiltinScripts.find("TPCB"));
        assertEquals("no builtin script found for name \"TPCB\"\n" + BuiltinScripts.listing(),
                none.getMessage() + "\n");
        ScriptFileException two = assertThrows(ScriptFileException.class, () -> BuiltinScripts.find("s"));
        assertEquals("ambiguous builtin name: 2 builtin scripts found for prefix \"s\"", two.firstLine());
    }

    @Test
    void tpcbLikeParsesIntoItsSevenStatementsAfterFourSets() {
        Script s = BuiltinScripts.TPCB_LIKE.parse(1);
        assertEquals(11, s.size());
        Command.Set aid = assertInstanceOf(Command.Set.class, s.command(0));
        assertEquals("aid", aid.variable());
        assertEquals("random(1, 100000 * :scale)", aid.expression().text().trim());
        Command.Sql update = assertInstanceOf(Command.Sql.class, s.command(5));
        assertEquals(List.of("delta", "aid"), update.text().parameterNames());
        assertEquals("UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2;",
                update.text().parameterized());
        Command.Sql insert = assertInstanceOf(Command.Sql.class, s.command(9));
        assertEquals(List.of("tid", "bid", "aid", "delta"), insert.text().parameterNames());
        assertEquals(6, line(s, 5));
    }

    private static int line(Script s, int index) {
        return s.command(index).line();
    }
}
