package dev.gauntlet.script.workload;

import dev.gauntlet.script.lang.ScriptException;
import dev.gauntlet.script.lang.SqlText;
import dev.gauntlet.script.lang.Value;
import java.util.HashMap;
import java.util.Map;

/**
 * One client's variables, as pgbench keeps them: a variable set from text ({@code -D}, {@code \gset}, {@code \aset},
 * {@code \setshell}) is that text, written into SQL as it is and read by an expression as the value it spells; one
 * set by {@code \set} is a value, written into SQL as pgbench writes values.
 */
public final class Variables {

    private final Map<String, Object> values = new HashMap<>();

    public void setText(String name, String text) {
        values.put(name, text);
    }

    public void setValue(String name, Value value) {
        values.put(name, value);
    }

    /**
     * pgbench's {@code putVariable}: sets the variable, a new one only under a name pgbench accepts (otherwise
     * {@code CONTEXT: invalid variable name: "NAME"}, {@code CONTEXT} the command's name, and nothing set).
     */
    void assign(String context, String name, Object value) throws ScriptException {
        if (values.put(name, value) == null && !SqlText.isValidVariableName(name)) {
            values.remove(name);
            throw new ScriptException(context + ": invalid variable name: \"" + name + "\"");
        }
    }

    public boolean defined(String name) {
        return values.containsKey(name);
    }

    /** The variable as an expression reads it; an undefined one is an error. */
    public Value value(String name) throws ScriptException {
        Object v = values.get(name);
        if (v == null) {
            throw new ScriptException("undefined variable \"" + name + "\"");
        }
        if (v instanceof Value value) {
            return value;
        }
        return Value.parse(name, (String) v);
    }

    /** The variable as SQL text, or null when it is undefined. */
    public String text(String name) {
        Object v = values.get(name);
        return v == null ? null : v instanceof Value value ? value.sqlText() : (String) v;
    }

    /** The variable as an integer (\sleep's, the ledger's), or null when undefined or not one. */
    public Long integer(String name) {
        try {
            return defined(name) ? value(name).asInt() : null;
        } catch (ScriptException e) {
            return null;
        }
    }
}
