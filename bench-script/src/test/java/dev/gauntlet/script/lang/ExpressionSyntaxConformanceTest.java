package dev.gauntlet.script.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every malformed expression of reports/bench-script/conformance/syntax-errors.txt is refused here as the real
 * pgbench 15 refused it in a {@code \set x EXPR} line (conformance/syntax-errors.tsv): the same message (reason and
 * detail) and the caret at the same column, counted from the start of the expression. Also expressions nested to
 * pgbench's limit.
 */
class ExpressionSyntaxConformanceTest {

    static Stream<Arguments> rows() {
        return ConformanceData.read("syntax-errors.tsv").stream()
                .map(row -> Arguments.of("line " + row.line() + ": " + row.field(1) + " (" + row.field(0) + ")", row));
    }

    static Stream<Arguments> deepRows() {
        return ConformanceData.read("deep-nesting.tsv").stream()
                .map(row -> Arguments.of("\"" + row.field(0) + "\" x " + row.field(3) + ", " + row.field(1), row));
    }

    /**
     * Nesting up to where pgbench's parser runs out of stack (conformance/deep-nesting.tsv): {@code memory
     * exhausted} at the same token, or accepted as pgbench accepted it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("deepRows")
    void nestsAsDeepAsPgbench(String name, ConformanceData.Row row) {
        int repeats = Integer.parseInt(row.field(3));
        String text = row.field(0).repeat(repeats) + row.field(1) + row.field(2).repeat(repeats);
        String outcome;
        try {
            ExpressionParser.parse(text);
            outcome = "ok\t";
        } catch (ScriptSyntaxException e) {
            outcome = e.getMessage() + "\t" + e.column();
        }
        assertEquals(row.field(4) + "\t" + row.field(5), outcome, () -> "line " + row.line() + ": " + name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void refusedAsPgbench(String name, ConformanceData.Row row) {
        boolean atEndOfFile = row.field(0).equals("eof");
        ScriptSyntaxException error = assertThrows(ScriptSyntaxException.class,
                () -> ExpressionParser.parse(row.field(1), atEndOfFile), () -> "line " + row.line() + " parsed");
        assertEquals(row.field(2) + " at column " + row.field(3), error.getMessage() + " at column " + error.column(),
                () -> "line " + row.line() + " of syntax-errors.tsv: " + row.field(1));
    }
}
