package dev.gauntlet.script.lang;

/**
 * A value of pgbench 15's expression language: {@code NULL}, a boolean, a 64-bit integer or a double, with pgbench's
 * coercions between them and its errors when one is impossible.
 *
 * <p>Values are immutable; two are {@link #equals equal} when they have the same kind and the same bits (so
 * {@code NaN} equals {@code NaN}, and {@code 0.0} differs from {@code -0.0}, as pgbench prints them apart).
 */
public final class Value {

    /** The kind of a value, named as pgbench names them in its messages. */
    public enum Kind {
        /** SQL's NULL. */
        NULL("null"),
        /** {@code true} or {@code false}. */
        BOOLEAN("boolean"),
        /** A signed 64-bit integer. */
        INT("int"),
        /** An IEEE double. */
        DOUBLE("double");

        private final String pgbenchName;

        Kind(String pgbenchName) {
            this.pgbenchName = pgbenchName;
        }

        /**
         * The name pgbench gives this kind in {@code debug()} and in {@code cannot coerce X to Y}.
         *
         * @return {@code null}, {@code boolean}, {@code int} or {@code double}
         */
        public String pgbenchName() {
            return pgbenchName;
        }
    }

    /** The NULL value. */
    public static final Value NULL = new Value(Kind.NULL, 0, 0);
    /** The boolean true. */
    public static final Value TRUE = new Value(Kind.BOOLEAN, 1, 0);
    /** The boolean false. */
    public static final Value FALSE = new Value(Kind.BOOLEAN, 0, 0);

    private final Kind kind;
    private final long bits;
    private final double doubleValue;

    private Value(Kind kind, long bits, double doubleValue) {
        this.kind = kind;
        this.bits = bits;
        this.doubleValue = doubleValue;
    }

    /**
     * An integer.
     *
     * @param value the integer
     * @return the value
     */
    public static Value ofInt(long value) {
        return new Value(Kind.INT, value, 0);
    }

    /**
     * A double.
     *
     * @param value the double (any: NaN, infinities and -0.0 included)
     * @return the value
     */
    public static Value ofDouble(double value) {
        return new Value(Kind.DOUBLE, Double.doubleToRawLongBits(value), value);
    }

    /**
     * A boolean.
     *
     * @param value the boolean
     * @return {@link #TRUE} or {@link #FALSE}
     */
    public static Value ofBoolean(boolean value) {
        return value ? TRUE : FALSE;
    }

    /**
     * The kind of this value.
     *
     * @return its kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * Whether this is NULL.
     *
     * @return true for {@link #NULL}
     */
    public boolean isNull() {
        return kind == Kind.NULL;
    }

    /**
     * This value as an integer, as pgbench's {@code coerceToInt}: an int as it is, a double rounded to the nearest
     * integer (halves to even, as C's {@code rint}) if it fits in 64 bits.
     *
     * @return the integer
     * @throws ScriptException {@code double to int overflow for X} (X as {@code %f}) or {@code cannot coerce boolean
     *                         to int} / {@code cannot coerce null to int}
     */
    public long asInt() throws ScriptException {
        switch (kind) {
            case INT:
                return bits;
            case DOUBLE:
                double rounded = Math.rint(doubleValue);
                if (Double.isNaN(rounded) || rounded < -0x1p63 || rounded >= 0x1p63) {
                    throw new ScriptException("double to int overflow for " + NumberText.formatF(rounded));
                }
                return (long) rounded;
            default:
                throw new ScriptException("cannot coerce " + kind.pgbenchName + " to int");
        }
    }

    /**
     * This value as a double, as pgbench's {@code coerceToDouble}: a double as it is, an int converted.
     *
     * @return the double
     * @throws ScriptException {@code cannot coerce boolean to double} / {@code cannot coerce null to double}
     */
    public double asDouble() throws ScriptException {
        switch (kind) {
            case DOUBLE:
                return doubleValue;
            case INT:
                return bits;
            default:
                throw new ScriptException("cannot coerce " + kind.pgbenchName + " to double");
        }
    }

    /**
     * This value as a boolean, as pgbench's {@code coerceToBool}: only a boolean is one.
     *
     * @return the boolean
     * @throws ScriptException {@code cannot coerce int to boolean} (or {@code double}, {@code null})
     */
    public boolean asBoolean() throws ScriptException {
        if (kind != Kind.BOOLEAN) {
            throw new ScriptException("cannot coerce " + kind.pgbenchName + " to boolean");
        }
        return bits != 0;
    }

    /**
     * Whether this value counts as true in {@code CASE WHEN} and {@code \if}, as pgbench's {@code valueTruth}:
     * NULL is false, a number is true unless zero ({@code NaN} is true).
     *
     * @return its truth
     */
    public boolean truth() {
        switch (kind) {
            case BOOLEAN:
            case INT:
                return bits != 0;
            case DOUBLE:
                return doubleValue != 0.0;
            default:
                return false;
        }
    }

    /**
     * The raw 64 bits of this value: the integer, the double's bits, 1 or 0 for a boolean, 0 for NULL. pgbench keeps
     * its values in a C union, and a few of its functions read the union as the wrong kind ({@code abs()} of a
     * boolean reads it as a double).
     *
     * @return the bits
     */
    long rawBits() {
        return bits;
    }

    /**
     * Reads a variable's text as pgbench does when an expression uses a variable set by {@code -D}, {@code \gset}
     * or {@code \setshell} ({@code makeVariableValue}): {@code null} (any case) is NULL; a prefix of {@code true} or
     * {@code yes}, or {@code on}, is true; a prefix of {@code false} or {@code no}, or {@code off} or {@code of}, is
     * false (any case); what looks like an integer must be one; anything else must be a double as C's {@code strtod}
     * reads it ({@code 1.5}, {@code .5}, {@code 1e3}, {@code 0x10}, {@code inf}, {@code nan}...).
     *
     * @param name the variable's name, which pgbench's message names
     * @param text the variable's text
     * @return the value
     * @throws ScriptException {@code value "X" is out of range for type bigint}, {@code invalid input syntax for type
     *                         bigint: "X"}, {@code malformed variable "NAME" value: "X"}, or an empty message for an
     *                         empty text (pgbench then says nothing but aborts the client)
     */
    public static Value parse(String name, String text) throws ScriptException {
        int length = text.length();
        if (length == 0) {
            throw new ScriptException("");
        }
        if (isWordIgnoreCase(text, "null")) {
            return NULL;
        }
        if (isPrefixIgnoreCase(text, "true") || isPrefixIgnoreCase(text, "yes") || isWordIgnoreCase(text, "on")) {
            return TRUE;
        }
        if (isPrefixIgnoreCase(text, "false") || isPrefixIgnoreCase(text, "no") || isWordIgnoreCase(text, "off")
                || isWordIgnoreCase(text, "of")) {
            return FALSE;
        }
        if (looksLikeInt(text)) {
            NumberText.Conversion conversion = NumberText.toLong(text);
            switch (conversion.status()) {
                case OK:
                    return ofInt(conversion.longValue());
                case OUT_OF_RANGE:
                    throw new ScriptException("value \"" + text + "\" is out of range for type bigint");
                default:
                    throw new ScriptException("invalid input syntax for type bigint: \"" + text + "\"");
            }
        }
        NumberText.Conversion conversion = NumberText.toDouble(text);
        if (conversion.status() != NumberText.Status.OK) {
            throw new ScriptException("malformed variable \"" + name + "\" value: \"" + text + "\"");
        }
        return ofDouble(conversion.doubleValue());
    }

    private static boolean isPrefixIgnoreCase(String text, String word) {
        return text.length() <= word.length() && NumberText.regionEqualsIgnoreAsciiCase(text, word, text.length());
    }

    private static boolean isWordIgnoreCase(String text, String word) {
        return text.length() == word.length() && NumberText.regionEqualsIgnoreAsciiCase(text, word, text.length());
    }

    /** pgbench's {@code is_an_int}: spaces, a sign, digits, nothing else (so "", "-" and " " pass). */
    private static boolean looksLikeInt(String text) {
        int i = 0;
        int n = text.length();
        while (i < n && NumberText.isSpace(text.charAt(i))) {
            i++;
        }
        if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            i++;
        }
        if (i < n && !NumberText.isDigit(text.charAt(i))) {
            return false;
        }
        while (i < n && NumberText.isDigit(text.charAt(i))) {
            i++;
        }
        return i == n;
    }

    /**
     * How pgbench writes this value into a query (a {@code :variable} in SQL, a parameter of an extended or
     * prepared query, an argument of {@code \shell}): {@code NULL}, {@code true}, {@code false}, the integer, or the
     * double as {@code %.15g} ({@code 0.333333333333333}, {@code 1e+300}, {@code -0}, {@code NaN},
     * {@code Infinity}).
     *
     * @return the text
     */
    public String sqlText() {
        switch (kind) {
            case NULL:
                return "NULL";
            case BOOLEAN:
                return bits != 0 ? "true" : "false";
            case INT:
                return Long.toString(bits);
            default:
                return NumberText.formatG(doubleValue);
        }
    }

    /**
     * What {@code debug()} prints after its {@code debug(script=N,command=N): } prefix: {@code null},
     * {@code boolean true}, {@code int 5}, {@code double 3.14159265358979}.
     *
     * @return the text
     */
    public String debugText() {
        switch (kind) {
            case NULL:
                return "null";
            case BOOLEAN:
                return bits != 0 ? "boolean true" : "boolean false";
            case INT:
                return "int " + bits;
            default:
                return "double " + NumberText.formatG(doubleValue);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Value && ((Value) other).kind == kind && ((Value) other).bits == bits;
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + Long.hashCode(bits);
    }

    @Override
    public String toString() {
        return debugText();
    }
}
