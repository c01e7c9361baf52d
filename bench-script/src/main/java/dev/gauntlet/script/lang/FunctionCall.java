package dev.gauntlet.script.lang;

import java.util.List;
import java.util.StringJoiner;

/**
 * A function, or an operator, applied to its arguments: {@code AND}, {@code OR} and {@code CASE} evaluate theirs
 * lazily as pgbench does; the others evaluate all of theirs first, left to right (at most 16), and give NULL if one
 * is NULL (except {@code debug()} and {@code IS}).
 */
final class FunctionCall implements Expression {

    private final BuiltinFunction function;
    private final Expression[] arguments;

    FunctionCall(BuiltinFunction function, List<Expression> arguments) {
        this.function = function;
        this.arguments = arguments.toArray(new Expression[0]);
    }

    @Override
    public Value evaluate(Evaluation context) throws ScriptException {
        switch (function) {
            case AND:
                return and(context);
            case OR:
                return or(context);
            case CASE:
                return caseWhen(context);
            default:
                break;
        }
        int count = Math.min(arguments.length, BuiltinFunction.MAX_ARGUMENTS);
        Value[] values = new Value[count];
        boolean hasNull = false;
        for (int i = 0; i < count; i++) {
            values[i] = arguments[i].evaluate(context);
            hasNull |= values[i].isNull();
        }
        if (arguments.length > count) {
            throw new ScriptException("too many function arguments, maximum is " + BuiltinFunction.MAX_ARGUMENTS);
        }
        if (hasNull && function != BuiltinFunction.IS && function != BuiltinFunction.DEBUG) {
            return Value.NULL;
        }
        return StandardFunctions.apply(function, values, context);
    }

    /** NULL if the left is NULL; false if it is false; else the right as a boolean, or NULL. */
    private Value and(Evaluation context) throws ScriptException {
        Value left = arguments[0].evaluate(context);
        if (left.isNull()) {
            return Value.NULL;
        }
        if (!left.asBoolean()) {
            return Value.FALSE;
        }
        Value right = arguments[1].evaluate(context);
        return right.isNull() ? Value.NULL : Value.ofBoolean(right.asBoolean());
    }

    /** NULL if the left is NULL; true if it is true; else the right as a boolean, or NULL. */
    private Value or(Evaluation context) throws ScriptException {
        Value left = arguments[0].evaluate(context);
        if (left.isNull()) {
            return Value.NULL;
        }
        if (left.asBoolean()) {
            return Value.TRUE;
        }
        Value right = arguments[1].evaluate(context);
        return right.isNull() ? Value.NULL : Value.ofBoolean(right.asBoolean());
    }

    /** The result of the first condition that is true ({@link Value#truth()}), else the last argument. */
    private Value caseWhen(Evaluation context) throws ScriptException {
        int i = 0;
        while (true) {
            if (arguments[i].evaluate(context).truth()) {
                return arguments[i + 1].evaluate(context);
            }
            i += 2;
            if (i == arguments.length - 1) {
                return arguments[i].evaluate(context);
            }
        }
    }

    @Override
    public String toString() {
        StringJoiner joined = new StringJoiner(", ", function.pgbenchName() + "(", ")");
        for (Expression argument : arguments) {
            joined.add(argument.toString());
        }
        return joined.toString();
    }
}
