package dev.gauntlet.script.lang;

/**
 * pgbench 15's functions, in the order of its table (a name is looked up case-insensitively, first match wins).
 * Operators are functions too: their names ({@code +}, {@code !and}...) cannot be written as function calls, except
 * {@code mod}, which {@code %} also is.
 */
enum BuiltinFunction {
    ADD("+", 2),
    SUB("-", 2),
    MUL("*", 2),
    DIV("/", 2),
    MOD("mod", 2),
    ABS("abs", 1),
    LEAST("least", Arity.AT_LEAST_ONE),
    GREATEST("greatest", Arity.AT_LEAST_ONE),
    DEBUG("debug", 1),
    PI("pi", 0),
    SQRT("sqrt", 1),
    LN("ln", 1),
    EXP("exp", 1),
    INT("int", 1),
    DOUBLE("double", 1),
    RANDOM("random", 2),
    RANDOM_GAUSSIAN("random_gaussian", 3),
    RANDOM_EXPONENTIAL("random_exponential", 3),
    RANDOM_ZIPFIAN("random_zipfian", 3),
    POW("pow", 2),
    POWER("power", 2),
    AND("!and", 2),
    OR("!or", 2),
    NOT("!not", 1),
    BITAND("&", 2),
    BITOR("|", 2),
    BITXOR("#", 2),
    LSHIFT("<<", 2),
    RSHIFT(">>", 2),
    EQ("=", 2),
    NE("<>", 2),
    LE("<=", 2),
    LT("<", 2),
    IS("!is", 2),
    CASE("!case_end", Arity.CASE),
    HASH("hash", Arity.HASH),
    HASH_MURMUR2("hash_murmur2", Arity.HASH),
    HASH_FNV1A("hash_fnv1a", Arity.HASH),
    PERMUTE("permute", Arity.PERMUTE);

    /** How many arguments a function takes. */
    enum Arity {
        /** Exactly {@link BuiltinFunction#fixedArguments}. */
        FIXED,
        /** One or more ({@code least}, {@code greatest}). */
        AT_LEAST_ONE,
        /** An odd number, at least 3 ({@code CASE}: conditions and results, then the else). */
        CASE,
        /** One, or two with a seed ({@code hash}): the seed is {@code :default_seed} when omitted. */
        HASH,
        /** Two, or three with a seed ({@code permute}): the seed is {@code :default_seed} when omitted. */
        PERMUTE
    }

    /** The most arguments pgbench evaluates for a function that is not lazy. */
    static final int MAX_ARGUMENTS = 16;

    private final String pgbenchName;
    private final Arity arity;
    private final int fixedArguments;

    BuiltinFunction(String pgbenchName, int fixedArguments) {
        this.pgbenchName = pgbenchName;
        this.arity = Arity.FIXED;
        this.fixedArguments = fixedArguments;
    }

    BuiltinFunction(String pgbenchName, Arity arity) {
        this.pgbenchName = pgbenchName;
        this.arity = arity;
        this.fixedArguments = -1;
    }

    /** The name in pgbench's table, as its messages give it. */
    String pgbenchName() {
        return pgbenchName;
    }

    Arity arity() {
        return arity;
    }

    int fixedArguments() {
        return fixedArguments;
    }

    /**
     * The function a name calls.
     *
     * @param name a name as written, in any case
     * @return the first function of pgbench's table with that name, or null
     */
    static BuiltinFunction named(String name) {
        for (BuiltinFunction function : values()) {
            if (function.pgbenchName.length() == name.length()
                    && NumberText.regionEqualsIgnoreAsciiCase(name, function.pgbenchName, name.length())) {
                return function;
            }
        }
        return null;
    }
}
