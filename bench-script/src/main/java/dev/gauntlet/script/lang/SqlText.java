package dev.gauntlet.script.lang;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * An SQL command's text split where pgbench substitutes variables: into literal pieces and {@code :name}
 * references, found the way pgbench 15's {@code assignVariables} (simple protocol) and {@code parseQuery} (extended
 * and prepared) find them.
 *
 * <p>pgbench looks for a colon anywhere in the text (inside string literals, quoted identifiers, dollar quotes and
 * comments too: it does not lex the SQL again). A colon followed by a letter, {@code _} or a non-ASCII character
 * starts a reference, whose name goes on over letters, digits, {@code _} and non-ASCII characters. A colon followed
 * by anything else is no reference, and neither are the colons right after it: {@code x::int} is a cast,
 * {@code :::a} and {@code ::a} are left alone, {@code :'a'}, {@code :"a"} and {@code :1} too.
 *
 * <p>A variable used twice is two references (two parameters, {@code $1} and {@code $2}, in extended mode).
 */
public final class SqlText {

    /** The most parameters pgbench 15 lets an SQL command have in extended and prepared modes (MAX_ARGS - 1). */
    public static final int MAX_PARAMETERS = 255;

    /** A piece of the text: literal text or a variable reference. */
    public sealed interface Piece permits Literal, Reference {
        /** The piece as written in the script. */
        String source();
    }

    /** Text sent as it is. */
    public record Literal(String source) implements Piece {
    }

    /** A {@code :name} reference; {@link #source()} is {@code ":" + name}. */
    public record Reference(String name) implements Piece {
        @Override
        public String source() {
            return ":" + name;
        }
    }

    private final String text;
    private final List<Piece> pieces;

    private SqlText(String text, List<Piece> pieces) {
        this.text = text;
        this.pieces = List.copyOf(pieces);
    }

    /** Splits {@code sql} (a command's text as pgbench collected it) into literal pieces and references. */
    public static SqlText parse(String sql) {
        List<Piece> pieces = new ArrayList<>();
        int literalStart = 0;
        int i = 0;
        while ((i = sql.indexOf(':', i)) >= 0) {
            int nameEnd = referenceEnd(sql, i);
            if (nameEnd < 0) {
                while (i < sql.length() && sql.charAt(i) == ':') {
                    i++;
                }
                continue;
            }
            if (i > literalStart) {
                pieces.add(new Literal(sql.substring(literalStart, i)));
            }
            pieces.add(new Reference(sql.substring(i + 1, nameEnd)));
            i = nameEnd;
            literalStart = nameEnd;
        }
        if (literalStart < sql.length()) {
            pieces.add(new Literal(sql.substring(literalStart)));
        }
        return new SqlText(sql, pieces);
    }

    /** The end of the name of the reference whose colon is at {@code colon}, or -1 when there is none there. */
    private static int referenceEnd(String sql, int colon) {
        int i = colon + 1;
        if (i >= sql.length() || !isNameStart(sql.charAt(i))) {
            return -1;
        }
        i++;
        while (i < sql.length() && isNamePart(sql.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isNameStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    }

    private static boolean isNamePart(char c) {
        return isNameStart(c) || (c >= '0' && c <= '9');
    }

    /**
     * Whether pgbench 15 accepts {@code name} as a variable's name (its {@code valid_variable_name}): not empty,
     * a letter, {@code _} or non-ASCII character first, then also digits. {@code \set}, {@code \gset} and
     * {@code -D} targets are checked when they are assigned, at run time ({@code invalid variable name: "1x"}).
     */
    public static boolean isValidVariableName(String name) {
        if (name.isEmpty() || !isNameStart(name.charAt(0))) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            if (!isNamePart(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** The text as pgbench collected it, references unsubstituted. */
    public String text() {
        return text;
    }

    /** The literal pieces and references, in order. */
    public List<Piece> pieces() {
        return pieces;
    }

    /** Whether the text references any variable. */
    public boolean hasReferences() {
        return pieces.stream().anyMatch(p -> p instanceof Reference);
    }

    /** The referenced names in order, a name once per reference (as {@link #parameterNames()}). */
    public List<String> referencedNames() {
        List<String> names = new ArrayList<>();
        for (Piece p : pieces) {
            if (p instanceof Reference r) {
                names.add(r.name());
            }
        }
        return names;
    }

    /**
     * The text as pgbench sends it in simple query mode: each reference replaced by {@code valueOf(name)}, or left
     * as {@code :name} when that is null (pgbench sends an undefined variable's reference as it is written, without
     * an error; the server then usually reports a syntax error at {@code ":"}). Values are not scanned again.
     */
    public String render(Function<String, String> valueOf) {
        StringBuilder b = new StringBuilder(text.length() + 16);
        for (Piece p : pieces) {
            if (p instanceof Reference r) {
                String value = valueOf.apply(r.name());
                b.append(value != null ? value : r.source());
            } else {
                b.append(p.source());
            }
        }
        return b.toString();
    }

    /**
     * The text as pgbench sends it in extended and prepared modes: the n-th reference replaced by {@code $n}
     * (every reference gets its own number, also when a name repeats, and also inside string literals and comments,
     * where the server then sees no parameter but still gets its value). An undefined variable is sent as a NULL
     * parameter in these modes. Check {@link #parameterCount()} against {@link #MAX_PARAMETERS} first (see
     * {@link ScriptParser#checkQueryMode}).
     */
    public String parameterized() {
        StringBuilder b = new StringBuilder(text.length());
        int n = 0;
        for (Piece p : pieces) {
            if (p instanceof Reference) {
                b.append('$').append(++n);
            } else {
                b.append(p.source());
            }
        }
        return b.toString();
    }

    /** The names whose values are the parameters {@code $1..$n} of {@link #parameterized()}, in order. */
    public List<String> parameterNames() {
        return referencedNames();
    }

    /** The number of parameters in extended and prepared modes: the number of references. */
    public int parameterCount() {
        return (int) pieces.stream().filter(p -> p instanceof Reference).count();
    }

    @Override
    public String toString() {
        return text;
    }
}
