package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.WorkloadCommand;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * The program of a SQL workload defined by a {@link SqlWorkload}: the subclass carries the {@code @Command}
 * annotation (name, description, examples) and hands out its definition; {@code init}, {@code run}, {@code check} and
 * {@code drop} come from here, each with the definition's options as a mixin. A subcommand the subclass declares
 * itself replaces the generic one of that name.
 */
public abstract class SqlWorkloadCommand<L, P> extends WorkloadCommand {

    /** The one definition every command of this program shares (its option objects are filled as parsed). */
    protected abstract SqlWorkload<L, P> definition();

    @Override
    protected void addCommands(CommandLine cli) {
        SqlWorkload<L, P> definition = definition();
        add(cli, definition, "init", new InitTables<>(definition), definition.loadOptions());
        add(cli, definition, "run", new RunWorkload<>(definition), definition.runOptions(), definition.loadOptions());
        add(cli, definition, "check", new CheckTables<>(definition), definition.checkOptions());
        add(cli, definition, "drop", new DropTables(definition));
    }

    private static void add(CommandLine cli, SqlWorkload<?, ?> definition, String name, Object command,
                            Object... mixins) {
        if (cli.getSubcommands().containsKey(name)) {
            return;
        }
        CommandLine sub = new CommandLine(command);
        sub.getCommandSpec().usageMessage().description(definition.description(name));
        List<String> examples = definition.examples(name);
        if (!examples.isEmpty()) {
            List<String> footer = new ArrayList<>(List.of("", "Examples:"));
            examples.forEach(e -> footer.add("  " + e));
            sub.getCommandSpec().usageMessage().footer(footer.toArray(String[]::new));
        }
        for (Object mixin : mixins) {
            if (mixin != null) {
                sub.addMixin(mixin.getClass().getSimpleName(), mixin);
            }
        }
        cli.addSubcommand(name, sub);
    }
}
