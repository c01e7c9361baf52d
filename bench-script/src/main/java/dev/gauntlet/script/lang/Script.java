package dev.gauntlet.script.lang;

import java.util.List;

/**
 * A parsed pgbench script: its name, its weight among the scripts of a run and its commands in order.
 *
 * @param name what pgbench calls the script in its reports and errors: the file name as given
 *     ({@code -f ./x.sql} is {@code "./x.sql"}), or a built-in's description ({@code "<builtin: TPC-B (sort of)>"})
 * @param weight the script's weight, 0 to {@link Integer#MAX_VALUE} (see {@link ScriptWeight})
 * @param commands the commands, never empty; {@code \gset} and {@code \aset} are part of the SQL command before them
 */
public record Script(String name, int weight, List<Command> commands) {

    public Script {
        if (weight < 0) {
            throw new IllegalArgumentException("weight " + weight + " is negative");
        }
        commands = List.copyOf(commands);
    }

    /** The number of commands. */
    public int size() {
        return commands.size();
    }

    /** The command at {@code index} (0-based, as pgbench numbers commands in its run-time messages). */
    public Command command(int index) {
        return commands.get(index);
    }

    /** This script with another weight. */
    public Script withWeight(int newWeight) {
        return new Script(name, newWeight, commands);
    }
}
