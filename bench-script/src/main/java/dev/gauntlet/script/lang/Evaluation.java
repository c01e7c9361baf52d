package dev.gauntlet.script.lang;

/**
 * What an {@link Expression} sees while it is evaluated for one client: its variables, its random state, and where
 * {@code debug()} prints.
 */
public interface Evaluation {

    /**
     * The value of a variable, as pgbench's {@code :name} in an expression reads it: a value stored by {@code \set}
     * as it is, a text (from {@code -D}, {@code \gset}, {@code \setshell}) through {@link Value#parse}.
     * {@code hash(x)} and {@code permute(i, n)} read {@code default_seed} through here.
     *
     * @param name the variable's name, without the colon
     * @return its value
     * @throws ScriptException {@code undefined variable "name"} if there is none, or the error of
     *                         {@link Value#parse}
     */
    Value variable(String name) throws ScriptException;

    /**
     * The client's state for the random functions ({@code random}, {@code random_exponential},
     * {@code random_gaussian}, {@code random_zipfian}), which they advance.
     *
     * @return the state
     */
    PgbenchRandom random();

    /**
     * Tells a value passed to {@code debug()}: pgbench prints {@code debug(script=S,command=C): } then
     * {@link Value#debugText()} on stderr, S the script's number and C the command's, from 1.
     *
     * @param value the value
     */
    void debug(Value value);
}
