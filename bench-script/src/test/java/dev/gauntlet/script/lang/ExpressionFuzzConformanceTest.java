package dev.gauntlet.script.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random expressions (reports/bench-script/conformance/fuzz-expressions.txt, most from the grammar, some token
 * soup) give here what the real pgbench 15 made of them (conformance/fuzz.tsv, from run-pgbench.sh): the same value
 * and {@code debug()} output, the same evaluation error, or the same syntax error at the same column. Each is
 * evaluated as pgbench ran it: {@code pgbench -c 1 -j 1 --random-seed=5432 -D x=3 -D y=2.5}.
 */
class ExpressionFuzzConformanceTest {

    static Stream<Arguments> rows() {
        return ConformanceData.read("fuzz.tsv").stream()
                .map(row -> Arguments.of("line " + row.line() + ": " + row.field(0), row));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void behavesAsPgbench(String name, ConformanceData.Row row) {
        ClientEvaluation client = ClientEvaluation.startup(ExpressionConformanceTest.SEED, Map.of("x", "3", "y", "2.5"));
        String outcome;
        try {
            Value value = ExpressionParser.parse(row.field(0)).evaluate(client);
            outcome = "value\t" + value.debugText() + "\t";
        } catch (ScriptException e) {
            outcome = "error\t" + e.getMessage() + "\t";
        } catch (ScriptSyntaxException e) {
            outcome = "syntax error\t" + e.getMessage() + "\t" + e.column();
        }
        String events = client.debugged().stream().map(Value::debugText).collect(Collectors.joining(" | "));
        assertEquals(String.join("\t", row.fields().subList(1, 5)), outcome + "\t" + events,
                () -> "line " + row.line() + " of fuzz.tsv: " + row.field(0));
    }

    @Test
    void coversValuesErrorsAndSyntaxErrors() {
        List<ConformanceData.Row> rows = ConformanceData.read("fuzz.tsv");
        for (String outcome : List.of("value", "error", "syntax error")) {
            long count = rows.stream().filter(r -> r.field(1).equals(outcome)).count();
            assertTrue(count >= 100, count + " rows of " + outcome);
        }
    }
}
