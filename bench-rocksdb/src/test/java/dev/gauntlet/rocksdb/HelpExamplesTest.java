package dev.gauntlet.rocksdb;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.testing.HelpText;
import org.junit.jupiter.api.Test;

/** Every command's --help formats cleanly and ends with examples of this tool (the report commands included). */
class HelpExamplesTest {

    @Test
    void everyHelpFormatsAndEndsWithExamples() {
        var root = GauntletCommandLine.create(new RocksDbCommand());
        for (HelpText.Page page : HelpText.all(root)) {
            String text = page.text();
            assertTrue(text.contains("Examples:"), page.command() + " has no examples:\n" + text);
            String afterExamples = text.substring(text.lastIndexOf("Examples:"));
            assertTrue(afterExamples.contains("  " + root.getCommandName()), page.command()
                    + "'s examples do not use " + root.getCommandName() + ":\n" + afterExamples);
        }
    }
}
