package dev.gauntlet.script.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Variable references in SQL as pgbench 15's assignVariables and parseQuery find them. */
class SqlTextTest {

    private static final Map<String, String> VALUES = Map.of("x", "5", "aid", "42", "été", "summer", "a_1", "A");

    @Test
    void referencesAreSubstitutedEverywhereEvenInLiteralsAndComments() {
        SqlText t = SqlText.parse("SELECT :x, ':x', $$:x$$, \":x\" /* :x */ -- :x\n");
        assertEquals("SELECT 5, '5', $$5$$, \"5\" /* 5 */ -- 5\n", t.render(VALUES::get));
        assertEquals(List.of("x", "x", "x", "x", "x", "x"), t.parameterNames());
    }

    @Test
    void castsAndColonRunsAreNotReferences() {
        SqlText t = SqlText.parse("SELECT :x::int, a::text, ::x, :::x, :1, :'x', :\"x\", :=, :");
        assertEquals(List.of("x"), t.parameterNames());
        assertEquals("SELECT 5::int, a::text, ::x, :::x, :1, :'x', :\"x\", :=, :", t.render(VALUES::get));
        assertEquals("SELECT $1::int, a::text, ::x, :::x, :1, :'x', :\"x\", :=, :", t.parameterized());
    }

    @Test
    void namesRunOverLettersDigitsUnderscoresAndNonAscii() {
        SqlText t = SqlText.parse("SELECT :a_1+:été-:x9.:aid");
        assertEquals(List.of("a_1", "été", "x9", "aid"), t.parameterNames());
        assertEquals("SELECT A+summer-:x9.42", t.render(VALUES::get));
    }

    @Test
    void undefinedVariablesAreSentAsWritten() {
        assertEquals("SELECT :nope, 5", SqlText.parse("SELECT :nope, :x").render(VALUES::get));
    }

    @Test
    void valuesAreNotScannedAgain() {
        assertEquals("SELECT :x", SqlText.parse("SELECT :v").render(Map.of("v", ":x")::get));
    }

    @Test
    void eachReferenceIsItsOwnParameterInExtendedMode() {
        SqlText t = SqlText.parse("UPDATE a SET b = b + :x WHERE aid = :aid AND :x > 0;");
        assertEquals("UPDATE a SET b = b + $1 WHERE aid = $2 AND $3 > 0;", t.parameterized());
        assertEquals(List.of("x", "aid", "x"), t.parameterNames());
        assertEquals(3, t.parameterCount());
    }

    @Test
    void piecesKeepTheTextWhole() {
        String sql = "a :x b ::c :d";
        SqlText t = SqlText.parse(sql);
        assertEquals(List.of(new SqlText.Literal("a "), new SqlText.Reference("x"), new SqlText.Literal(" b ::c "),
                new SqlText.Reference("d")), t.pieces());
        assertEquals(sql, String.join("", t.pieces().stream().map(SqlText.Piece::source).toList()));
        assertTrue(t.hasReferences());
        assertFalse(SqlText.parse("SELECT 1").hasReferences());
    }

    @Test
    void variableNames() {
        assertTrue(SqlText.isValidVariableName("_a1"));
        assertTrue(SqlText.isValidVariableName("été"));
        assertFalse(SqlText.isValidVariableName("1x"));
        assertFalse(SqlText.isValidVariableName(""));
        assertFalse(SqlText.isValidVariableName("?column?"));
    }

    @Test
    void morethan255ParametersAreRefusedInExtendedAndPreparedModesOnly() {
        String sql = "SELECT " + String.join(", ", java.util.Collections.nCopies(256, ":x")) + ";";
        Script s = ScriptParser.parse("f.sql", sql, 1);
        ScriptParser.checkQueryMode(s, QueryMode.SIMPLE);
        ScriptFileException e = assertThrows(ScriptFileException.class,
                () -> ScriptParser.checkQueryMode(s, QueryMode.PREPARED));
        assertEquals("statement has too many arguments (maximum is 255): " + sql, e.getMessage());
        ScriptParser.checkQueryMode(ScriptParser.parse("f.sql", sql.replaceFirst(":x, ", ""), 1), QueryMode.EXTENDED);
    }
}
