package dev.gauntlet.script.lang;

/**
 * One of pgbench's built-in scripts.
 *
 * @param name its short name for {@code -b} ({@code "tpcb-like"})
 * @param description its description, which is also the script's name in reports
 *     ({@code "<builtin: TPC-B (sort of)>"})
 * @param text its text, ending with a newline
 */
public record BuiltinScript(String name, String description, String text) {

    /** The script parsed, with this weight; pgbench names it by its description. */
    public Script parse(int weight) {
        return ScriptParser.parse(description, text, weight);
    }

    /**
     * What {@code pgbench --show-script=NAME} prints (on standard error): {@code "-- NAME: DESCRIPTION\n"}, the
     * text, and one more newline.
     */
    public String showScript() {
        return "-- " + name + ": " + description + "\n" + text + "\n";
    }
}
