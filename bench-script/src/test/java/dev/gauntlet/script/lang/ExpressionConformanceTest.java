package dev.gauntlet.script.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every expression of reports/bench-script/conformance/expressions.txt evaluated here gives what the real pgbench 15
 * printed for it (conformance/expressions.tsv, written by run-pgbench.sh): the values passed to {@code debug()}
 * inside it, its value as {@code debug()} prints it, and as pgbench writes it into a query; or pgbench's error
 * message. Each row is evaluated as pgbench ran it: one client of {@code pgbench -c 1 -j 1 --random-seed=5432},
 * with the row's {@code -D} definitions and {@code \gset} texts.
 */
class ExpressionConformanceTest {

    /** The --random-seed run-pgbench.sh gave every expression. */
    static final long SEED = 5432;

    static Stream<Arguments> rows() {
        return ConformanceData.read("expressions.tsv").stream()
                .map(row -> Arguments.of("line " + row.line() + ": " + row.fromEnd(3), row));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void evaluatesAsPgbench(String name, ConformanceData.Row row) {
        List<String> fields = row.fields();
        Map<String, String> definitions = new LinkedHashMap<>();
        Map<String, String> gsets = new LinkedHashMap<>();
        for (String setup : fields.subList(0, fields.size() - 4)) {
            String assignment = setup.substring(2);
            int equals = assignment.indexOf('=');
            (setup.startsWith("D:") ? definitions : gsets).put(assignment.substring(0, equals),
                    assignment.substring(equals + 1));
        }
        ClientEvaluation client = ClientEvaluation.startup(SEED, definitions);
        gsets.forEach(client::setText);
        String result;
        String sql = "";
        try {
            Value value = ExpressionParser.parse(row.fromEnd(3)).evaluate(client);
            result = value.debugText();
            sql = value.sqlText();
        } catch (ScriptException e) {
            result = "error: " + e.getMessage();
        } catch (ScriptSyntaxException e) {
            result = "syntax error: " + e.getMessage();
        }
        String events = client.debugged().stream().map(Value::debugText).collect(Collectors.joining(" | "));
        assertEquals(row.fromEnd(2) + "\t" + row.fromEnd(1) + "\t" + row.fromEnd(0), events + "\t" + result + "\t" + sql,
                () -> "line " + row.line() + " of expressions.tsv: " + row.fromEnd(3));
    }

    @Test
    void coversEnough() {
        List<ConformanceData.Row> rows = ConformanceData.read("expressions.tsv");
        assertTrue(rows.size() >= 130, "expressions.tsv has " + rows.size() + " rows");
        long errors = rows.stream().filter(r -> r.fromEnd(1).startsWith("error: ")).count();
        assertTrue(errors >= 40, "only " + errors + " error rows");
    }
}
