package dev.gauntlet.script.lang;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What real pgbench 15 said about the conformance scripts, as reports/bench-script/conformance/run-bad-scripts.sh
 * recorded it under src/test/resources/conformance/, and where the scripts themselves are.
 */
final class Conformance {

    /** One row of a recorded table: its columns before the text, its kind, its number and its (unescaped) text. */
    record Row(List<String> keys, int exit, String kind, int n, String text) {
    }

    /** Everything recorded for one script file or one option case, rows in order. */
    record Case(String id, int exit, List<Row> rows) {

        List<String> texts(String kind) {
            List<String> out = new ArrayList<>();
            for (Row r : rows) {
                if (r.kind().equals(kind)) {
                    out.add(r.text());
                }
            }
            return out;
        }

        /** The recorded stderr as pgbench wrote it (lines joined, final newline included). */
        String stderr() {
            List<String> lines = texts("stderr");
            return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
        }
    }

    private Conformance() {
    }

    /** The recorded outcomes of bad-scripts.tsv, by file name. */
    static Map<String, Case> scripts() {
        return read("bad-scripts.tsv", 1);
    }

    /** The recorded outcomes of options.tsv, by case number; a case's first key is its escaped arguments. */
    static Map<String, Case> options() {
        return read("options.tsv", 2);
    }

    /** The text of a resource under conformance/. */
    static String resource(String name) {
        try (InputStream in = Conformance.class.getResourceAsStream("/conformance/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no resource conformance/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** reports/bench-script/conformance/bad-scripts, found from the working directory up. */
    static Path scriptDirectory() {
        Path at = Path.of("").toAbsolutePath();
        for (Path p = at; p != null; p = p.getParent()) {
            Path candidate = p.resolve("reports/bench-script/conformance/bad-scripts");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no reports/bench-script/conformance/bad-scripts above " + at);
    }

    /** A conformance script's text, byte for byte (as UTF-8). */
    static String script(String file) {
        try {
            return Files.readString(scriptDirectory().resolve(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Case> read(String table, int keyColumns) {
        String[] lines = resource(table).split("\n");
        Map<String, List<Row>> rows = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            String[] f = lines[i].split("\t", -1);
            List<String> keys = List.of(f).subList(0, keyColumns);
            Row row = new Row(keys, Integer.parseInt(f[keyColumns]), f[keyColumns + 1],
                    Integer.parseInt(f[keyColumns + 2]), unescape(f[keyColumns + 3]));
            rows.computeIfAbsent(f[0], k -> new ArrayList<>()).add(row);
        }
        Map<String, Case> cases = new LinkedHashMap<>();
        rows.forEach((id, r) -> cases.put(id, new Case(id, r.get(0).exit(), r)));
        return cases;
    }

    /** Undoes the script's escapes: {@code \\ \t \r \n}. */
    static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char e = s.charAt(++i);
                b.append(switch (e) {
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case 'n' -> '\n';
                    default -> e;
                });
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
