package dev.gauntlet.core.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import org.junit.jupiter.api.Test;

/** The command line's last line of defence: whatever is thrown, one line and an exit code, never a stack trace. */
class GauntletCommandLineTest {

    @Command(name = "bench-throws", subcommands = Throws.Boom.class)
    static final class Throws {

        @Command(name = "boom")
        static final class Boom implements Callable<Integer> {
            @Option(names = "--what")
            String what = "error";

            @Override
            public Integer call() {
                switch (what) {
                    case "error" -> throw new InternalError(new java.lang.reflect.InvocationTargetException(
                            new RuntimeException("Fontconfig head is null, check your fonts or fonts configuration")));
                    case "linkage" -> throw new NoClassDefFoundError("Could not initialize class sun.awt.X11FontManager");
                    case "runtime" -> throw new IllegalStateException("a library's own state");
                    default -> {
                        return ExitCode.OK;
                    }
                }
            }
        }
    }

    private record Outcome(int code, String err) {
    }

    private static Outcome run(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = GauntletCommandLine.create(new Throws());
        cli.setErr(new PrintWriter(err, true));
        return new Outcome(cli.execute(args), err.toString());
    }

    @Test
    void anErrorFromALibraryIsOneLineAndTheInternalErrorCode() {
        for (String what : new String[] {"error", "linkage", "runtime"}) {
            Outcome o = run("boom", "--what", what);
            assertEquals(ExitCode.INTERNAL, o.code(), what + ": " + o.err());
            assertEquals(1, o.err().lines().count(), what + ": one line, no stack trace: " + o.err());
            assertTrue(o.err().startsWith("boom: internal error, "), o.err());
            assertTrue(o.err().contains("--verbose"), "says how to see the trace: " + o.err());
        }
        assertTrue(run("boom", "--what", "error").err().contains("InternalError"));
    }

    @Test
    void withVerboseTheTraceFollowsTheLine() {
        Outcome o = run("boom", "--what", "error", "--verbose");
        assertEquals(ExitCode.INTERNAL, o.code());
        assertTrue(o.err().lines().count() > 3, o.err());
        assertTrue(o.err().contains("\tat "), o.err());
        assertFalse(o.err().lines().findFirst().orElseThrow().contains("\tat "));
    }

    @Test
    void whatRanWellStillExitsZero() {
        assertEquals(ExitCode.OK, run("boom", "--what", "nothing").code());
    }
}
