package dev.gauntlet.testing;

import dev.gauntlet.core.cli.GauntletCommandLine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * A workload's command line run in the test's JVM against a test database, as a user would type it:
 * {@code command --url ... --user ... [--password=...] args}, with what it printed to stdout and stderr.
 *
 * @param code the exit code
 */
public record CommandRun(int code, String out, String err) {

    /** Runs {@code command args} of the root command {@code root} (a fresh instance) against {@code db}. */
    public static CommandRun of(Object root, TestDatabase db, String command, String... args) {
        List<String> all = arguments(db, command, args);
        StringWriter err = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream console = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            CommandLine cli = GauntletCommandLine.create(root);
            cli.setErr(new PrintWriter(err, true));
            int code = cli.execute(all.toArray(String[]::new));
            return new CommandRun(code, out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(console);
        }
    }

    /** {@code command --url ... --user ... [--password=...] args}: the command line against {@code db}. */
    public static List<String> arguments(TestDatabase db, String command, String... args) {
        List<String> all = new ArrayList<>(List.of(command, "--url", db.jdbcUrl(), "--user", db.user()));
        if (db.password() != null) {
            all.add("--password=" + db.password());
        }
        all.addAll(List.of(args));
        return all;
    }
}
