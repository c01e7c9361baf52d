package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.WorkloadCommand;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The program of a SQL workload: the subclass carries the {@code @Command} annotation (name, description, examples)
 * and hands out its definition; the generic commands come from here, each with the definition's options as a mixin:
 * {@code check} and {@code drop} for any {@link SqlTables}, {@code init} for a {@link SqlSchema}, {@code run} for a
 * {@link SqlWorkload}. A subcommand the subclass declares itself (its own {@code run}, say) replaces the generic one
 * of that name.
 */
public abstract class SqlWorkloadCommand extends WorkloadCommand {

    /** The one definition every command of this program shares (its option objects are filled as parsed). */
    private final SqlTables<?> definition;

    /**
     * @param definition its tables (for the generic check and drop), schema (and init) or workload (and run)
     * @param defaultJob the arguments of {@code run} that make the default job, as typed
     */
    protected SqlWorkloadCommand(SqlTables<?> definition, String defaultJob) {
        super(defaultJob);
        this.definition = definition;
    }

    @Override
    protected void addCommands(CommandLine cli) {
        SqlTables<?> tables = definition;
        if (tables instanceof SqlSchema<?> schema) {
            add(cli, tables, "init", new InitTables<>(schema), schema.loadOptions());
            if (tables instanceof SqlWorkload<?, ?> workload) {
                add(cli, tables, "run", new RunWorkload<>(workload), workload.runOptions(), schema.loadOptions());
            }
        }
        add(cli, tables, "check", new CheckTables<>(tables), tables.checkOptions());
        add(cli, tables, "drop", new DropTables(tables));
        if (!cli.getSubcommands().containsKey("lab")) {
            cli.addSubcommand("lab", new LabCommand());
        }
    }

    private static void add(CommandLine cli, SqlTables<?> definition, String name, Object command, Object... mixins) {
        if (cli.getSubcommands().containsKey(name)) {
            return;
        }
        CommandLine sub = new CommandLine(command);
        sub.getCommandSpec().usageMessage().description(definition.description(name).split("%n"));
        List<String> examples = definition.examples(name);
        if (!examples.isEmpty()) {
            List<String> footer = new ArrayList<>(List.of("", "Examples:"));
            examples.forEach(e -> footer.add("  " + e));
            sub.getCommandSpec().usageMessage().footer(footer.toArray(String[]::new));
        }
        for (Object mixin : mixins) {
            if (mixin != null) {
                sub.addMixin(mixin.getClass().getSimpleName(), mixin);
                injectMixee(mixin, sub.getCommandSpec());
            }
        }
        cli.addSubcommand(name, sub);
    }

    /**
     * Sets a mixin's {@code @Spec(MIXEE)} fields to the command it was added to: picocli does that for a mixin declared
     * with {@code @Mixin}, not for one added by {@code addMixin}, and an options object may ask which of its options
     * were given.
     */
    private static void injectMixee(Object mixin, CommandSpec mixee) {
        for (Field f : mixin.getClass().getDeclaredFields()) {
            Spec spec = f.getAnnotation(Spec.class);
            if (spec != null && spec.value() == Spec.Target.MIXEE) {
                try {
                    f.setAccessible(true);
                    f.set(mixin, mixee);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot set " + f + ": " + e.getMessage(), e);
                }
            }
        }
    }
}
