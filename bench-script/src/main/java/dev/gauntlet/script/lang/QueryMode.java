package dev.gauntlet.script.lang;

/** pgbench's {@code -M} protocols for sending SQL commands. */
public enum QueryMode {
    /** The simple query protocol, variables substituted into the text ({@link SqlText#render}). */
    SIMPLE("simple"),
    /** The extended protocol, variables as parameters ({@link SqlText#parameterized()}). */
    EXTENDED("extended"),
    /** The extended protocol with statements prepared once per connection. */
    PREPARED("prepared");

    private final String option;

    QueryMode(String option) {
        this.option = option;
    }

    /** The name {@code -M} takes. */
    public String option() {
        return option;
    }

    /** The mode {@code -M value} names (exactly, in lower case), or pgbench's refusal. */
    public static QueryMode fromOption(String value) {
        for (QueryMode m : values()) {
            if (m.option.equals(value)) {
                return m;
            }
        }
        throw ScriptFileException.of("invalid query mode (-M): \"" + value + "\"");
    }
}
