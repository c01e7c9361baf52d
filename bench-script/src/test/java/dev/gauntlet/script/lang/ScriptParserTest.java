package dev.gauntlet.script.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the parser makes of a script, beyond what pgbench's output shows (the conformance tests check that). */
class ScriptParserTest {

    private static Script parse(String text) {
        return ScriptParser.parse("t.sql", text, 1);
    }

    private static Command.Sql sql(Script s, int index) {
        return assertInstanceOf(Command.Sql.class, s.command(index));
    }

    @Test
    void linesAreWhereCommandsStart() {
        Script s = parse("-- c\n\n  SELECT 1,\n 2; SELECT 3;\n\\set x 1 \\\n + 2\n/* c */ SELECT 4 \\gset\n");
        assertEquals(List.of(3, 4, 5, 7), s.commands().stream().map(Command::line).toList());
        assertEquals("SELECT 1,\n 2;", sql(s, 0).text().text());
        assertEquals("SELECT 3;", sql(s, 1).text().text());
        assertEquals("/* c */ SELECT 4 ", sql(s, 3).text().text());
        assertEquals(new ResultVariables(ResultVariables.Mode.GSET, "", 7), sql(s, 3).results());
    }

    @Test
    void compoundsCountTheirQueries() {
        Script s = parse("SELECT 1 \\; SELECT 2 \\; \\; /* c */ \\; SELECT 3 \\aset p_\nSELECT 4;\n/* only */\n");
        Command.Sql compound = sql(s, 0);
        assertTrue(compound.compound());
        assertEquals(3, compound.queryCount());
        assertEquals("SELECT 1 ; SELECT 2 ; ; /* c */ ; SELECT 3 ", compound.text().text());
        assertEquals(new ResultVariables(ResultVariables.Mode.ASET, "p_", 1), compound.results());
        assertFalse(sql(s, 1).compound());
        assertEquals(1, sql(s, 1).queryCount());
        assertNull(sql(s, 1).results());
        assertEquals(0, sql(s, 2).queryCount());
    }

    @Test
    void semicolonsInsideQuotesCommentsParenthesesAndRoutineBodiesDoNotEndCommands() {
        Script s = parse("SELECT ';', \";\", $a$;$a$, E'\\';', (1;2) /* ; */;\n"
                + "CREATE OR REPLACE PROCEDURE p() BEGIN ATOMIC SELECT 1; SELECT CASE WHEN 1=1 THEN 2 END; END;\n"
                + "SELECT a$b$c;\nSELECT 'a'\n  'b;c';\nSELECT E'x'\n'\\'; ';\n");
        assertEquals(5, s.size());
        assertEquals("SELECT ';', \";\", $a$;$a$, E'\\';', (1;2) /* ; */;", sql(s, 0).text().text());
        assertTrue(sql(s, 1).text().text().endsWith("END; END;"));
        assertEquals("SELECT a$b$c;", sql(s, 2).text().text());
        assertEquals("SELECT 'a'\n  'b;c';", sql(s, 3).text().text());
        assertEquals("SELECT E'x'\n'\\'; ';", sql(s, 4).text().text());
    }

    @Test
    void anUnterminatedQuoteRunsToTheEndOfTheScript() {
        Script s = parse("SELECT 'abc;\n\\set x 1\n");
        assertEquals(1, s.size());
        assertEquals("SELECT 'abc;\n\\set x 1\n", sql(s, 0).text().text());
        assertEquals("SELECT 'abc;", s.command(0).display());
    }

    @Test
    void psqlVariableTestsBecomeFalseOutsideQuotes() {
        Script s = parse("SELECT :{?x}, ':{?x}', :'x', \\:x -- :{?x}\n;\n:{?y} \\;;\n");
        assertEquals("SELECT FALSE, ':{?x}', :'x', :x -- :{?x}\n;", sql(s, 0).text().text());
        assertEquals("FALSE ;;", sql(s, 1).text().text());
        assertEquals(3, sql(s, 1).line());
    }

    @Test
    void conditionalsKnowWhereToJump() {
        Script s = parse("\\if 1\n\\if 0\nSELECT 1;\n\\elif 1\nSELECT 2;\n\\else\nSELECT 3;\n\\endif\n"
                + "\\elif 0\nSELECT 4;\n\\endif\n");
        Command.If outer = assertInstanceOf(Command.If.class, s.command(0));
        Command.If inner = assertInstanceOf(Command.If.class, s.command(1));
        Command.Elif innerElif = assertInstanceOf(Command.Elif.class, s.command(3));
        Command.Else innerElse = assertInstanceOf(Command.Else.class, s.command(5));
        Command.Elif outerElif = assertInstanceOf(Command.Elif.class, s.command(8));
        assertEquals(List.of(8, 10), List.of(outer.nextBranch(), outer.endIf()));
        assertEquals(List.of(3, 7), List.of(inner.nextBranch(), inner.endIf()));
        assertEquals(List.of(5, 7), List.of(innerElif.nextBranch(), innerElif.endIf()));
        assertEquals(7, innerElse.endIf());
        assertEquals(List.of(10, 10), List.of(outerElif.nextBranch(), outerElif.endIf()));
        assertEquals("0", outerElif.condition().text().trim());
    }

    @Test
    void sleepAmountsAndUnits() {
        Script s = parse("\\sleep 10ms\n\\sleep :t US\n\\sleep -5\n\\sleep +\n\\sleep 99999999999 s\n");
        Command.Sleep a = assertInstanceOf(Command.Sleep.class, s.command(0));
        assertEquals(List.of("10", SleepUnit.MS, 10), List.of(a.amount(), a.unit(), a.literal()));
        Command.Sleep b = assertInstanceOf(Command.Sleep.class, s.command(1));
        assertTrue(b.fromVariable());
        assertEquals(List.of("t", SleepUnit.US), List.of(b.variable(), b.unit()));
        Command.Sleep c = assertInstanceOf(Command.Sleep.class, s.command(2));
        assertEquals(List.of(-5, SleepUnit.S), List.of(c.literal(), c.unit()));
        assertEquals(0, ((Command.Sleep) s.command(3)).literal());
        assertEquals(1215752191, ((Command.Sleep) s.command(4)).literal(), "atoi: long cut to int");
        assertEquals(-1, Command.Sleep.atoi("99999999999999999999"), "atoi: saturated, then cut");
    }

    @Test
    void shellWordsAreSplitAtWhitespaceWithColonRules() {
        Script s = parse("\\setshell v echo :x ::y \"a  b\"\n\\SHELL  true\n");
        Command.SetShell set = assertInstanceOf(Command.SetShell.class, s.command(0));
        assertEquals("v", set.variable());
        assertEquals(List.of(new ShellArgument("echo", false, "echo"), new ShellArgument(":x", true, "x"),
                new ShellArgument("::y", false, ":y"), new ShellArgument("\"a", false, "\"a"),
                new ShellArgument("b\"", false, "b\"")), set.command());
        Command.Shell shell = assertInstanceOf(Command.Shell.class, s.command(1));
        assertEquals("SHELL", shell.name());
        assertEquals("\\SHELL  true", shell.display());
    }

    @Test
    void expressionsKeepTheirTextAndOffsets() {
        Script s = parse("SELECT 1;\n\\set  x  1 + \\\n 2\r\n\\if é = 1\n\\endif");
        Command.Set set = assertInstanceOf(Command.Set.class, s.command(1));
        ExpressionText e = set.expression();
        assertEquals("  1 + \\\n 2\r", e.text());
        assertEquals("  1 +    2 ", e.lexable());
        assertEquals(List.of(2, 7, 18), List.of(e.line(), e.offset(), e.endColumn()));
        assertEquals("\\set  x  1 + \\\n 2", set.display());
        Command.If f = assertInstanceOf(Command.If.class, s.command(2));
        assertEquals(List.of(" é = 1", 4, 3, 10), List.of(f.condition().text(), f.condition().line(),
                f.condition().offset(), f.condition().endColumn()));
    }

    @Test
    void aNulCharacterEndsTheScript() {
        Script s = parse("SELECT 1;\0\\bogus\n");
        assertEquals(1, s.size());
    }

    @Test
    void bareBackslashesAreIgnored() {
        Script s = parse("\\\nSELECT 1; \\\n\\ \t \n");
        assertEquals(1, s.size());
    }

    @Test
    void sqlDisplayIsTheFirstLineCutAt127Bytes() {
        String line = "SELECT '" + "é".repeat(70) + "'";
        Script s = parse(line + "\n;");
        String display = s.command(0).display();
        assertEquals(SourceText.utf8Prefix(line, 127), display);
        assertTrue(SourceText.utf8Length(display, 0, display.length()) <= 127);
    }

    @Test
    void refusalsCarryPgbenchsExactText() {
        ScriptFileException e = assertThrows(ScriptFileException.class, () -> parse("\\sleep 1 hours\n"));
        assertEquals(List.of("t.sql:1: unrecognized time unit, must be us, ms or s (hours) in command \"sleep\"",
                "\\sleep 1 hours", "         ^ error found here"), e.lines());
        assertEquals("pgbench: error: " + String.join("\n", e.lines()) + "\n", e.pgbenchStderr());
        assertEquals("f:3: bad (x) at column 5", ScriptFileException.syntaxError("f", 3, null, null, "bad", "x", 4)
                .getMessage());
    }

    @Test
    void weights() {
        assertEquals(new ScriptWeight("a@b.sql", 1), ScriptWeight.parse("a@b.sql@1"));
        assertEquals(new ScriptWeight("f", 1), ScriptWeight.parse("f"));
        assertEquals(new ScriptWeight("f", 7), ScriptWeight.parse("f@\t7"));
        assertEquals(new ScriptWeight("f", 0), ScriptWeight.parse("f@-0"));
        assertEquals("weight specification out of range (0 .. 2147483647): -9223372036854775808",
                assertThrows(ScriptFileException.class, () -> ScriptWeight.parse("f@-9223372036854775808"))
                        .getMessage());
        assertEquals("invalid weight specification: @9223372036854775808",
                assertThrows(ScriptFileException.class, () -> ScriptWeight.parse("f@9223372036854775808"))
                        .getMessage());
        assertEquals("invalid weight specification: @-9223372036854775808x",
                assertThrows(ScriptFileException.class, () -> ScriptWeight.parse("f@-9223372036854775808x"))
                        .getMessage());
    }

    @Test
    void choosingAScriptByWeight() {
        Script one = parse("SELECT 1;");
        ScriptChoice choice = new ScriptChoice().add(one.withWeight(2)).add(one.withWeight(0)).add(one.withWeight(3));
        assertEquals(5, choice.totalWeight());
        assertEquals(List.of(0, 0, 2, 2, 2), List.of(choice.pick(0), choice.pick(1), choice.pick(2), choice.pick(3),
                choice.pick(4)));
        assertEquals(0, new ScriptChoice().add(one).pick(12345));
    }
}
