package dev.gauntlet.core.experiment;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One value of an experiment's dimension: a name, and the SQL (possibly none) that puts the server in that state,
 * e.g. {@code off='ALTER SYSTEM SET synchronous_commit = off; SELECT pg_reload_conf()'}. A level without SQL is
 * interpreted by the workload (a schema variant, a pool mode) or is a baseline that changes nothing. Statements are
 * split on semicolons and run with auto-commit (ALTER SYSTEM cannot run in a transaction block).
 */
public record Level(String name, List<String> statements) {

    private static final Pattern SETS = Pattern.compile(
            "(?i)^\\s*(?:ALTER\\s+SYSTEM\\s+SET|SET\\s+CLUSTER\\s+SETTING)\\s+([A-Za-z0-9_.]+)\\s*(?:=|TO)\\s*(.+?)\\s*$");

    public Level {
        if (name == null || !name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("level name '" + name
                    + "' must be letters, digits, '.', '_' or '-' (it names a directory)");
        }
        statements = List.copyOf(statements);
    }

    /** A level the workload interprets by its name, with no SQL. */
    public static Level named(String name) {
        return new Level(name, List.of());
    }

    /** Parses {@code NAME=SQL;SQL}; the SQL may be empty (a baseline that changes nothing). */
    public static Level parse(String text) {
        int eq = text.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("'" + text + "' must look like NAME='SQL;SQL'");
        }
        return new Level(text.substring(0, eq).strip(), splitStatements(text.substring(eq + 1)));
    }

    /**
     * The server settings this level's {@code ALTER SYSTEM SET} / {@code SET CLUSTER SETTING} statements ask for,
     * by name, with the quotes taken off: what to verify before trusting the level ran as named.
     */
    public Map<String, String> requestedSettings() {
        Map<String, String> wanted = new LinkedHashMap<>();
        for (String sql : statements) {
            Matcher m = SETS.matcher(sql);
            if (m.matches()) {
                wanted.put(m.group(1), m.group(2).replaceAll("^'(.*)'$", "$1"));
            }
        }
        return wanted;
    }

    static List<String> splitStatements(String sql) {
        return Arrays.stream(sql.split(";")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
