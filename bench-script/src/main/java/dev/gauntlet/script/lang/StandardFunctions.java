package dev.gauntlet.script.lang;

/**
 * What pgbench 15's functions and operators compute once their arguments are evaluated (none of them NULL, except
 * for {@code debug()} and {@code IS}), with pgbench's coercions, overflow checks and messages.
 */
final class StandardFunctions {

    private StandardFunctions() {
    }

    static Value apply(BuiltinFunction function, Value[] args, Evaluation context) throws ScriptException {
        switch (function) {
            case ADD:
            case SUB:
            case MUL:
            case DIV:
            case MOD:
            case EQ:
            case NE:
            case LE:
            case LT:
                return arithmetic(function, args[0], args[1]);
            case BITAND:
            case BITOR:
            case BITXOR:
            case LSHIFT:
            case RSHIFT:
                return bitwise(function, args[0].asInt(), args[1].asInt());
            case NOT:
                return Value.ofBoolean(!args[0].asBoolean());
            case PI:
                return Value.ofDouble(Math.PI);
            case ABS:
                return abs(args[0]);
            case DEBUG:
                context.debug(args[0]);
                return args[0];
            case DOUBLE:
                return Value.ofDouble(args[0].asDouble());
            case SQRT:
                return Value.ofDouble(Math.sqrt(args[0].asDouble()));
            case LN:
                return Value.ofDouble(Math.log(args[0].asDouble()));
            case EXP:
                return Value.ofDouble(Math.exp(args[0].asDouble()));
            case INT:
                return Value.ofInt(args[0].asInt());
            case LEAST:
            case GREATEST:
                return extremum(function == BuiltinFunction.LEAST, args);
            case RANDOM:
            case RANDOM_EXPONENTIAL:
            case RANDOM_GAUSSIAN:
            case RANDOM_ZIPFIAN:
                return random(function, args, context.random());
            case POW:
            case POWER:
                return Value.ofDouble(CMath.pow(args[0].asDouble(), args[1].asDouble()));
            case IS:
                // pgbench compares the kinds and the first byte of the values' storage
                return Value.ofBoolean(args[0].kind() == args[1].kind()
                        && (byte) args[0].rawBits() == (byte) args[1].rawBits());
            case HASH:
            case HASH_MURMUR2:
                return Value.ofInt(PgbenchHash.murmur2(args[0].asInt(), args[1].asInt()));
            case HASH_FNV1A:
                return Value.ofInt(PgbenchHash.fnv1a(args[0].asInt(), args[1].asInt()));
            case PERMUTE:
                return permute(args[0].asInt(), args[1].asInt(), args[2].asInt());
            default:
                throw new IllegalStateException("not a standard function: " + function);
        }
    }

    /** The overloaded operators: in doubles if either side is one (but {@code %}), else in 64-bit integers. */
    private static Value arithmetic(BuiltinFunction function, Value left, Value right) throws ScriptException {
        if ((left.kind() == Value.Kind.DOUBLE || right.kind() == Value.Kind.DOUBLE) && function != BuiltinFunction.MOD) {
            double l = left.asDouble();
            double r = right.asDouble();
            switch (function) {
                case ADD:
                    return Value.ofDouble(l + r);
                case SUB:
                    return Value.ofDouble(l - r);
                case MUL:
                    return Value.ofDouble(l * r);
                case DIV:
                    return Value.ofDouble(l / r);
                case EQ:
                    return Value.ofBoolean(l == r);
                case NE:
                    return Value.ofBoolean(l != r);
                case LE:
                    return Value.ofBoolean(l <= r);
                default:
                    return Value.ofBoolean(l < r);
            }
        }
        long l = left.asInt();
        long r = right.asInt();
        switch (function) {
            case ADD:
                long sum = l + r;
                if (((l ^ sum) & (r ^ sum)) < 0) {
                    throw new ScriptException("bigint add out of range");
                }
                return Value.ofInt(sum);
            case SUB:
                long difference = l - r;
                if (((l ^ r) & (l ^ difference)) < 0) {
                    throw new ScriptException("bigint sub out of range");
                }
                return Value.ofInt(difference);
            case MUL:
                long high = Math.multiplyHigh(l, r);
                long product = l * r;
                if (high != (product >> 63)) {
                    throw new ScriptException("bigint mul out of range");
                }
                return Value.ofInt(product);
            case EQ:
                return Value.ofBoolean(l == r);
            case NE:
                return Value.ofBoolean(l != r);
            case LE:
                return Value.ofBoolean(l <= r);
            case LT:
                return Value.ofBoolean(l < r);
            default:
                return divide(function == BuiltinFunction.DIV, l, r);
        }
    }

    private static Value divide(boolean quotient, long l, long r) throws ScriptException {
        if (r == 0) {
            throw new ScriptException("division by zero");
        }
        if (r == -1) {
            if (!quotient) {
                return Value.ofInt(0);
            }
            if (l == Long.MIN_VALUE) {
                throw new ScriptException("bigint div out of range");
            }
            return Value.ofInt(-l);
        }
        return Value.ofInt(quotient ? l / r : l % r);
    }

    /** Bitwise operators; shifts count modulo 64, as x86-64 does (C leaves larger counts undefined). */
    private static Value bitwise(BuiltinFunction function, long l, long r) {
        switch (function) {
            case BITAND:
                return Value.ofInt(l & r);
            case BITOR:
                return Value.ofInt(l | r);
            case BITXOR:
                return Value.ofInt(l ^ r);
            case LSHIFT:
                return Value.ofInt(l << r);
            default:
                return Value.ofInt(l >> r);
        }
    }

    /**
     * {@code abs()}: of an int (-9223372036854775808 stays itself) or a double (-0.0 stays itself, as pgbench
     * compares with 0); pgbench reads a boolean's storage as a double (true gives 4.94065645841247e-324 when the
     * rest of its storage is zero, which it is for a constant).
     */
    private static Value abs(Value value) {
        if (value.kind() == Value.Kind.INT) {
            long i = value.rawBits();
            return Value.ofInt(i < 0 ? -i : i);
        }
        double d = Double.longBitsToDouble(value.rawBits());
        return Value.ofDouble(d < 0.0 ? -d : d);
    }

    /** {@code least()}/{@code greatest()}: in doubles if any argument is one, else in integers. */
    private static Value extremum(boolean least, Value[] args) throws ScriptException {
        boolean anyDouble = false;
        for (Value arg : args) {
            anyDouble |= arg.kind() == Value.Kind.DOUBLE;
        }
        if (anyDouble) {
            double extremum = args[0].asDouble();
            for (int i = 1; i < args.length; i++) {
                double d = args[i].asDouble();
                extremum = least ? (extremum < d ? extremum : d) : (extremum > d ? extremum : d);
            }
            return Value.ofDouble(extremum);
        }
        long extremum = args[0].asInt();
        for (int i = 1; i < args.length; i++) {
            long l = args[i].asInt();
            extremum = least ? Math.min(extremum, l) : Math.max(extremum, l);
        }
        return Value.ofInt(extremum);
    }

    /** The random functions: the range is checked before the parameter is read. */
    private static Value random(BuiltinFunction function, Value[] args, PgbenchRandom random)
            throws ScriptException {
        long min = args[0].asInt();
        long max = args[1].asInt();
        PgbenchRandom.checkRange(min, max);
        if (function == BuiltinFunction.RANDOM) {
            return Value.ofInt(random.uniform(min, max));
        }
        double parameter = args[2].asDouble();
        switch (function) {
            case RANDOM_GAUSSIAN:
                return Value.ofInt(random.gaussian(min, max, parameter));
            case RANDOM_ZIPFIAN:
                return Value.ofInt(random.zipfian(min, max, parameter));
            default:
                return Value.ofInt(random.exponential(min, max, parameter));
        }
    }

    private static Value permute(long value, long size, long seed) throws ScriptException {
        if (size <= 0) {
            throw new ScriptException("permute size parameter must be greater than zero");
        }
        return Value.ofInt(PgbenchHash.permute(value, size, seed));
    }
}
