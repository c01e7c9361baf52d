package dev.gauntlet.script.lang;

/** A {@code :variable} in an expression, or the {@code :default_seed} pgbench adds to {@code hash()}. */
final class VariableReference implements Expression {

    private final String name;

    VariableReference(String name) {
        this.name = name;
    }

    @Override
    public Value evaluate(Evaluation context) throws ScriptException {
        return context.variable(name);
    }

    @Override
    public String toString() {
        return ":" + name;
    }
}
