package dev.gauntlet.script.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The parser against what real pgbench 15 did with each script of reports/bench-script/conformance/bad-scripts
 * (recorded by run-bad-scripts.sh in bad-scripts.tsv):
 *
 * <ul>
 * <li>{@code bad-*}: refused with exactly pgbench's message, every line of it;</li>
 * <li>{@code expr-*}: refused by pgbench for an expression error, which is the expression compiler's to find: the
 * parser accepts the script, and the command's line, display text, name and the {@link ExpressionText} offsets give
 * pgbench's exact message through {@link ScriptFileException#syntaxError};</li>
 * <li>{@code ok-*}: parsed into the commands pgbench reports with {@code -r} (same number, same display texts), and
 * the SQL pgbench sent ({@code --debug}) is what the commands render to, walking the script by the parser's
 * conditional jumps with the variables pgbench had at each point (fixed below). pgbench's log drops one trailing
 * newline of each text it prints, so a command that runs to a meta-command on the next line (or to the end of the
 * script) shows without its last newline, which it does send.</li>
 * </ul>
 */
class ScriptParserConformanceTest {

    /** The values pgbench had when it sent each accepted script's SQL (-D x=5 -D y=7, then the script's own). */
    private static final Map<String, Map<String, String>> VARIABLES = Map.of(
            "ok-meta-continuation.sql", Map.of("x", "3", "y", "3", "v", "4"),
            "ok-compound-gset.sql", Map.of("p_b", "2", "c", "3", "d", "4"),
            "ok-gset-previous-line.sql", Map.of("a", "1", "q_b", "2"),
            "ok-crlf.sql", Map.of("x", "2"),
            "ok-case-insensitive.sql", Map.of("x", "1"),
            "ok-sql-then-meta-on-one-line.sql", Map.of("x", "2"));

    /** The truth of the conditions of the accepted scripts. */
    private static final Map<String, Boolean> CONDITIONS = Map.of("1", true, "0", false, ":x = 1", true);

    @TestFactory
    Stream<DynamicTest> eachScriptAsPgbenchSawIt() {
        Map<String, Conformance.Case> cases = Conformance.scripts();
        assertTrue(cases.keySet().stream().filter(f -> f.startsWith("bad-")).count() >= 20, "at least 20 bad scripts");
        return cases.values().stream().map(c -> DynamicTest.dynamicTest(c.id(), () -> check(c)));
    }

    private static void check(Conformance.Case recorded) {
        String file = recorded.id();
        String text = Conformance.script(file);
        QueryMode mode = file.contains("-extended-") ? QueryMode.EXTENDED : QueryMode.SIMPLE;
        if (file.startsWith("bad-")) {
            assertEquals(1, recorded.exit(), file + ": pgbench's exit status");
            ScriptFileException e = assertThrows(ScriptFileException.class, () -> {
                Script s = ScriptParser.parse(file, text, 1);
                ScriptParser.checkQueryMode(s, mode);
            });
            assertEquals(recorded.stderr(), e.pgbenchStderr(), file + ": pgbench's message");
        } else if (file.startsWith("expr-")) {
            assertEquals(1, recorded.exit(), file + ": pgbench's exit status");
            checkExpressionError(file, ScriptParser.parse(file, text, 1), recorded);
        } else {
            assertEquals(0, recorded.exit(), () -> file + ": pgbench's exit status; it said " + recorded.stderr());
            Script script = ScriptParser.parse(file, text, 1);
            ScriptParser.checkQueryMode(script, mode);
            List<String> displays = script.commands().stream().map(Command::display).toList();
            assertEquals(recorded.texts("command"), displays, file + ": the commands pgbench reports with -r");
            assertEquals(recorded.texts("sent"), sent(file, script, mode), file + ": the SQL pgbench sent");
        }
    }

    /** What an interpreter sends running {@code script} once, by the parser's jumps. */
    private static List<String> sent(String file, Script script, QueryMode mode) {
        Map<String, String> values = new HashMap<>(Map.of("x", "5", "y", "7"));
        values.putAll(VARIABLES.getOrDefault(file, Map.of()));
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < script.size()) {
            Command c = script.command(i);
            if (c instanceof Command.Sql sql) {
                String text = mode == QueryMode.SIMPLE ? sql.text().render(values::get) : sql.text().parameterized();
                // pgbench's log (pg_log_debug) drops one trailing newline of what it prints
                out.add(text.endsWith("\n") ? text.substring(0, text.length() - 1) : text);
                i++;
            } else if (c instanceof Command.If f) {
                i = branch(script, f);
            } else if (c instanceof Command.Elif f) {
                i = f.endIf() + 1;
            } else if (c instanceof Command.Else e) {
                i = e.endIf() + 1;
            } else {
                i++;
            }
        }
        return out;
    }

    /** Where a run goes from an {@code \if} or an {@code \elif} reached by a jump: into the first true branch. */
    private static int branch(Script script, Command.Branch b) {
        Command.Branch at = b;
        while (true) {
            String condition = at.condition().lexable().trim();
            Boolean truth = CONDITIONS.get(condition);
            if (truth == null) {
                throw new AssertionError("no truth for condition " + condition);
            }
            if (truth) {
                return script.commands().indexOf(at) + 1;
            }
            Command next = script.command(at.nextBranch());
            if (next instanceof Command.Elif elif) {
                at = elif;
            } else {
                return at.nextBranch() + 1;
            }
        }
    }

    /**
     * The expression compiler's part of pgbench's refusals: the error's column is the expression's end
     * ({@code syntax error}) or the offending character ({@code unexpected character}), computed from
     * {@link ExpressionText} as its Javadoc says.
     */
    private static void checkExpressionError(String file, Script script, Conformance.Case recorded) {
        String first = recorded.texts("stderr").get(0);
        int line = Integer.parseInt(first.replaceFirst("^pgbench: error: [^:]*:(\\d+): .*$", "$1"));
        Command.Meta command = (Command.Meta) script.commands().stream()
                .filter(c -> c.line() == line && (c instanceof Command.Set || c instanceof Command.Branch))
                .findFirst().orElseThrow();
        ExpressionText expression = command instanceof Command.Set s ? s.expression()
                : ((Command.Branch) command).condition();
        assertFalse(expression.isBlank());
        ScriptFileException expected;
        if (first.contains("unexpected character (")) {
            String character = first.replaceFirst("^.*unexpected character \\((.)\\).*$", "$1");
            int index = expression.text().indexOf(character);
            int column = expression.offset() + SourceText.utf8Length(expression.text(), 0, index + 1) - 1;
            expected = ScriptFileException.syntaxError(file, command.line(), command.display(), command.name(),
                    "unexpected character", character, column);
        } else {
            expected = ScriptFileException.syntaxError(file, command.line(), command.display(), command.name(),
                    "syntax error", null, expression.endColumn());
        }
        assertEquals(recorded.stderr(), expected.pgbenchStderr(), file + ": pgbench's message");
    }
}
