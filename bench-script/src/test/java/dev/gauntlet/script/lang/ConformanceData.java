package dev.gauntlet.script.lang;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The files reports/bench-script/conformance/run-pgbench.sh wrote from the real pgbench 15, read from the test
 * resources (conformance/*.tsv): comment lines start with {@code #}, fields are separated by tabs.
 */
final class ConformanceData {

    /** A data line and where it is. */
    record Row(int line, List<String> fields) {

        String field(int index) {
            return fields.get(index);
        }

        String fromEnd(int index) {
            return fields.get(fields.size() - 1 - index);
        }
    }

    private ConformanceData() {
    }

    static List<Row> read(String name) {
        String resource = "/conformance/" + name;
        try (InputStream in = ConformanceData.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<Row> rows = new ArrayList<>();
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                if (!line.isEmpty() && !line.startsWith("#")) {
                    rows.add(new Row(number, List.of(line.split("\t", -1))));
                }
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static long[] longs(String csv) {
        String[] parts = csv.split(",");
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            values[i] = Long.parseLong(parts[i]);
        }
        return values;
    }
}
