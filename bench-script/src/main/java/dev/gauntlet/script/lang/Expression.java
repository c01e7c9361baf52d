package dev.gauntlet.script.lang;

/**
 * A parsed pgbench expression (the right-hand side of {@code \set}, the condition of {@code \if} and
 * {@code \elif}), evaluated as pgbench 15 evaluates it: arguments left to right, {@code AND}, {@code OR} and
 * {@code CASE} lazily, other functions after all their arguments, NULL in any argument giving NULL (except for
 * {@code debug()} and {@code IS}).
 *
 * <p>Expressions are immutable and may be evaluated by many clients at once, each with its own {@link Evaluation}.
 * {@link #toString()} shows the tree as pgbench builds it (operators as the functions they are, with their
 * arguments in pgbench's order: {@code a > b} is {@code <(b, a)}).
 *
 * <p>Evaluation recurses once per level of nesting, as pgbench's does. pgbench's parser accepts nesting up to some
 * 10,000 levels ({@code - - ... - 1} with 9,997 minus signs), which it evaluates on its 8 MB stack; here a thread
 * with the JVM's default 1 MB stack overflows past about 5,000 levels, so a runner of such scripts should give its
 * client threads a larger stack. ({@link ExpressionParser} parses deep expressions on a thread of its own.)
 */
public interface Expression {

    /**
     * Evaluates this expression.
     *
     * @param context what the evaluation reads (variables), draws from (the client's random state) and tells
     *                ({@code debug()})
     * @return the value
     * @throws ScriptException with pgbench's message, when pgbench would abort the client
     */
    Value evaluate(Evaluation context) throws ScriptException;
}
