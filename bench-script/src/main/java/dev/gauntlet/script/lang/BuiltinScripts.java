package dev.gauntlet.script.lang;

import java.util.ArrayList;
import java.util.List;

/**
 * pgbench 15's three built-in scripts ({@code -b NAME}, {@code -N}, {@code -S}, and {@code tpcb-like} when no
 * script is given), their texts exactly as {@code pgbench --show-script=NAME} prints them, and pgbench's lookup of a
 * name by unique prefix.
 */
public final class BuiltinScripts {

    private static final String TPCB_START = """
            \\set aid random(1, 100000 * :scale)
            \\set bid random(1, 1 * :scale)
            \\set tid random(1, 10 * :scale)
            \\set delta random(-5000, 5000)
            BEGIN;
            UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
            SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
            """;

    private static final String HISTORY = """
            INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
            END;
            """;

    /** The TPC-B-like transaction, pgbench's default. */
    public static final BuiltinScript TPCB_LIKE = new BuiltinScript("tpcb-like", "<builtin: TPC-B (sort of)>",
            TPCB_START + """
                    UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
                    UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
                    """ + HISTORY);

    /** TPC-B-like without the tellers' and branches' updates ({@code -N}). */
    public static final BuiltinScript SIMPLE_UPDATE = new BuiltinScript("simple-update", "<builtin: simple update>",
            TPCB_START + HISTORY);

    /** One account's balance read ({@code -S}). */
    public static final BuiltinScript SELECT_ONLY = new BuiltinScript("select-only", "<builtin: select only>", """
            \\set aid random(1, 100000 * :scale)
            SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
            """);

    private static final List<BuiltinScript> ALL = List.of(TPCB_LIKE, SIMPLE_UPDATE, SELECT_ONLY);

    private BuiltinScripts() {
    }

    /** The built-ins in pgbench's order. */
    public static List<BuiltinScript> all() {
        return ALL;
    }

    /**
     * The built-in whose name starts with {@code prefix} (a whole name is a prefix too), as pgbench's
     * {@code findBuiltin}: refused when none does ({@code no builtin script found for name "x"}) or several do
     * ({@code ambiguous builtin name: 2 builtin scripts found for prefix "s"}; {@code ""} matches all three), the
     * message followed by the list of built-ins as pgbench prints it ({@link #listing()}).
     */
    public static BuiltinScript find(String prefix) {
        List<BuiltinScript> found = new ArrayList<>();
        for (BuiltinScript b : ALL) {
            if (b.name().startsWith(prefix)) {
                found.add(b);
            }
        }
        if (found.size() == 1) {
            return found.get(0);
        }
        String message = found.isEmpty()
                ? "no builtin script found for name \"" + prefix + "\""
                : "ambiguous builtin name: " + found.size() + " builtin scripts found for prefix \"" + prefix + "\"";
        List<String> lines = new ArrayList<>();
        lines.add(message);
        lines.addAll(List.of(listing().split("\n", -1)));
        lines.remove(lines.size() - 1);
        throw ScriptFileException.of(lines);
    }

    /**
     * What {@code pgbench -b list} prints (on standard error): {@code "Available builtin scripts:"}, one line per
     * built-in with its name right-aligned in 15 columns, then an empty line.
     */
    public static String listing() {
        StringBuilder b = new StringBuilder("Available builtin scripts:\n");
        for (BuiltinScript s : ALL) {
            b.append(String.format("  %13s: %s", s.name(), s.description())).append('\n');
        }
        return b.append('\n').toString();
    }
}
