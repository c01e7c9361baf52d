package dev.gauntlet.script;

import dev.gauntlet.testing.ChildJvm;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a test: the measurement of {@code reports/bench-script/init.md}, run only when named
 * ({@code -Dtest=InitTiming}; its name matches none of surefire's patterns). Alternates Gauntlet's init (a JVM of its
 * own each time, as a user runs it) with {@code pgbench -i} at the same scale on the test's default database, each
 * replacing the other's tables, and writes the wall times and each tool's own step line to
 * {@code target/init-timing.md}. {@code -Dtiming.scale=10 -Dtiming.rounds=3}.
 */
@ExtendWith(PostgresExtension.class)
class InitTiming {

    @Test
    void initAgainstPgbench(TestDatabase db, @TempDir Path tmp) throws Exception {
        RealPgbench pgbench = RealPgbench.require();
        String scale = Integer.toString(Integer.getInteger("timing.scale", 10));
        int rounds = Integer.getInteger("timing.rounds", 3);
        List<String> rows = new ArrayList<>(List.of("| # | tool | wall s | its own account |", "|---|---|---:|---|"));
        for (int round = 1; round <= rounds; round++) {
            Path log = tmp.resolve("gauntlet-" + round + ".log");
            long start = System.nanoTime();
            Process init = ChildJvm.start(ChildJvm.command(TablesOnlyCommand.class, List.of(), db, "init", "--drop",
                    "-s", scale), log);
            int code = init.waitFor();
            double gauntlet = (System.nanoTime() - start) / 1e9;
            String out = Files.readString(log);
            if (code != 0) {
                throw new AssertionError("init exited " + code + ":\n" + out);
            }
            rows.add(row(2 * round - 1, "Gauntlet init --drop -s " + scale, gauntlet, out));

            start = System.nanoTime();
            String theirs = pgbench.succeed(db, "-i", "-s", scale);
            rows.add(row(2 * round, "pgbench -i -s " + scale, (System.nanoTime() - start) / 1e9, theirs));
        }
        String table = String.join("\n", rows) + "\n";
        Files.writeString(Path.of("target", "init-timing.md"), table);
        System.out.print(table);
    }

    /** One run: its wall time and the lines in which the tool tells its own time. */
    private static String row(int n, String tool, double seconds, String output) {
        String own = String.join("; ", output.lines().filter(l -> l.startsWith("done in") || l.startsWith("Loaded "))
                .toList());
        return String.format(Locale.ROOT, "| %d | %s | %.2f | %s |", n, tool, seconds, own);
    }
}
