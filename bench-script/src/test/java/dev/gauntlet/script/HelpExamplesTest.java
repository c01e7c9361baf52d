package dev.gauntlet.script;

import dev.gauntlet.testing.HelpText;
import org.junit.jupiter.api.Test;

/** Every command's --help formats cleanly and ends with examples of this tool (the report commands included). */
class HelpExamplesTest {

    @Test
    void everyHelpFormatsAndEndsWithExamples() {
        HelpText.assertEveryCommandEndsWithExamples(new ScriptCommand());
    }
}
