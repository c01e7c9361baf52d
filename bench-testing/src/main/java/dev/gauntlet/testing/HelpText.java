package dev.gauntlet.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * Every command's {@code --help}, rendered: for tests that want each help text to format (picocli treats
 * descriptions as format strings, so a bare {@code %} garbles them and warns on stderr) and to end with examples.
 */
public final class HelpText {

    private HelpText() {
    }

    /** A command's qualified name and its rendered help. */
    public record Page(String command, String text) {
    }

    /**
     * Checks that every command of {@code root} (report commands included) has help that formats and ends with
     * examples typed with the tool's own name; throws {@link AssertionError} naming the first that does not.
     */
    public static void assertEveryCommandEndsWithExamples(Object root) {
        CommandLine cli = dev.gauntlet.core.cli.GauntletCommandLine.create(root);
        for (Page page : all(cli)) {
            int examples = page.text().lastIndexOf("Examples:");
            if (examples < 0) {
                throw new AssertionError(page.command() + " has no examples:\n" + page.text());
            }
            if (!page.text().substring(examples).contains("  " + cli.getCommandName())) {
                throw new AssertionError(page.command() + "'s examples do not use " + cli.getCommandName() + ":\n"
                        + page.text().substring(examples));
            }
        }
    }

    /** The help of {@code cli} and of all its subcommands, depth first; throws on any picocli warning. */
    public static List<Page> all(CommandLine cli) {
        List<Page> pages = new ArrayList<>();
        collect(cli, pages);
        return pages;
    }

    private static void collect(CommandLine cli, List<Page> pages) {
        PrintStream err = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        String text;
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            text = cli.getUsageMessage();
        } finally {
            System.setErr(err);
        }
        String warned = warnings.toString(StandardCharsets.UTF_8);
        if (warned.contains("WARN")) {
            throw new IllegalStateException(cli.getCommandSpec().qualifiedName() + " --help: " + warned.strip());
        }
        pages.add(new Page(cli.getCommandSpec().qualifiedName(), text));
        cli.getSubcommands().values().stream().distinct().forEach(sub -> collect(sub, pages));
    }
}
