package dev.gauntlet.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default job: the seed's question answered, in a table of the four variants and a trade-off line. */
class AnswerCommandTest {

    @Test
    void answersWithEveryVariantAndWhatManualFlushRisks(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("answer");
        Cli cli = Cli.run("run", "--num", "20000", "--repeat", "1", "--out", out.toString());
        assertEquals(0, cli.exitCode, cli.err);
        String answer = Files.readString(out.resolve("answer.md"));
        for (String row : new String[] {"| fillseq | automatic |", "| fillseq | manual |", "| fillrandom | automatic |",
                "| fillrandom | manual |"}) {
            assertTrue(answer.contains(row), row + " in\n" + answer);
        }
        assertTrue(answer.contains("with manual flush and no FlushWAL, 0 with automatic flush"), answer);
        assertTrue(Files.exists(out.resolve("fillrandom-manual-flush").resolve("result.json")));
    }

    @Test
    void badInputIsRefused() {
        Cli cli = Cli.run("run", "--repeat", "0");
        assertEquals(2, cli.exitCode, cli.err);
        assertTrue(cli.err.contains("--repeat"), cli.err);
    }
}
