package dev.gauntlet.tpcc;

import java.util.Arrays;
import java.util.List;

/**
 * One arm of an A/B experiment: a name and the SQL that puts the server in that state, e.g.
 * {@code off='ALTER SYSTEM SET synchronous_commit = off; SELECT pg_reload_conf()'}. Statements are split on
 * semicolons and run with auto-commit (ALTER SYSTEM cannot run in a transaction block).
 */
public record Variant(String name, List<String> statements) {

    public Variant {
        if (name == null || !name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("variant name '" + name
                    + "' must be letters, digits, '.', '_' or '-' (it names a directory)");
        }
        statements = List.copyOf(statements);
    }

    /** Parses {@code NAME=SQL;SQL}; the SQL may be empty (a baseline that changes nothing). */
    public static Variant parse(String text) {
        int eq = text.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("--variant '" + text + "' must look like NAME='SQL;SQL'");
        }
        return new Variant(text.substring(0, eq).strip(), splitStatements(text.substring(eq + 1)));
    }

    private static final java.util.regex.Pattern SETS = java.util.regex.Pattern.compile(
            "(?i)^\\s*(?:ALTER\\s+SYSTEM\\s+SET|SET\\s+CLUSTER\\s+SETTING)\\s+([A-Za-z0-9_.]+)\\s*(?:=|TO)\\s*(.+?)\\s*$");

    /**
     * The server settings this variant's {@code ALTER SYSTEM SET} / {@code SET CLUSTER SETTING} statements
     * ask for, by name, with the quotes taken off: what to verify before trusting the variant ran as named.
     */
    public java.util.Map<String, String> requestedSettings() {
        java.util.Map<String, String> wanted = new java.util.LinkedHashMap<>();
        for (String sql : statements) {
            java.util.regex.Matcher m = SETS.matcher(sql);
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
