package dev.gauntlet.script.lang;

/** A constant of an expression: a literal, or one pgbench adds ({@code 0} of {@code -x}, the NULL of a CASE). */
final class Constant implements Expression {

    private final Value value;

    Constant(Value value) {
        this.value = value;
    }

    @Override
    public Value evaluate(Evaluation context) {
        return value;
    }

    @Override
    public String toString() {
        return value.sqlText();
    }
}
