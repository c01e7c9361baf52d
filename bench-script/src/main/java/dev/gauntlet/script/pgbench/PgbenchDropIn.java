package dev.gauntlet.script.pgbench;

import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.script.workload.PgbenchAbort;
import dev.gauntlet.script.workload.PgbenchTransactionLog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code bench-script pgbench [pgbench's options] [dbname]}: pgbench 15's command line, run by Gauntlet. pgbench's
 * defaults (1 client, 10 transactions), its exit status (0; 1 for a bad command line, a script it cannot read or a
 * server it cannot reach; 2 when the run went wrong), its streams and its texts; the benchmark itself is {@code run}
 * (the same scripts, driver and summary), and Gauntlet's result.json, report.md and dashboard are written beside it,
 * named in one line on standard error when that is a terminal. Gauntlet's own console lines go to the run directory's
 * {@code console.log}, never among pgbench's.
 */
public final class PgbenchDropIn {

    /** The pgbench this one speaks as; {@code -V} says so. */
    static final String VERSION = "pgbench (PostgreSQL) 15 (Gauntlet bench-script's drop-in)";

    private final Map<String, String> env;
    private final PrintStream out;
    private final PrintStream err;
    private final BenchmarkCommand benchmark;

    /** @param benchmark {@code bench-script run}, which runs the benchmark itself */
    public PgbenchDropIn(Map<String, String> env, PrintStream out, PrintStream err, BenchmarkCommand benchmark) {
        this.env = env;
        this.out = out;
        this.err = err;
        this.benchmark = benchmark;
    }

    /** Runs pgbench's command line {@code args} (without the program's name); the exit status pgbench would give. */
    public int run(List<String> args) {
        if (!args.isEmpty() && (args.get(0).equals("--help") || args.get(0).equals("-?"))) {
            out.print(PgbenchUsage.TEXT);
            return 0;
        }
        if (!args.isEmpty() && (args.get(0).equals("--version") || args.get(0).equals("-V"))) {
            out.println(VERSION);
            return 0;
        }
        List<String> info = new ArrayList<>();
        try {
            PgbenchSettings s;
            try {
                s = PgbenchArguments.read(args, env, info);
            } finally {
                info.forEach(err::println);
            }
            LibpqTarget target = LibpqTarget.of(s, env);
            if (s.init) {
                PgbenchInit.run(s, target, err);
                return 0;
            }
            return benchmark(s, target);
        } catch (PgbenchExit e) {
            e.lines().forEach(err::println);
            return e.status();
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** pgbench's start (connection, version, the tables' scale), then {@code run} with pgbench's settings. */
    private int benchmark(PgbenchSettings s, LibpqTarget target) {
        try (Connection c = target.connect()) {
            DatabaseMetaData meta = c.getMetaData();
            out.println("pgbench (15, server " + meta.getDatabaseProductVersion() + ")");
            if (s.scripts.stream().anyMatch(PgbenchSettings.ScriptArgument::builtin)) {
                int scale = tableScale(c, target);
                if (s.scaleGiven) {
                    err.println(PgbenchLog.warning("scale option ignored, using count from pgbench_branches table ("
                            + scale + ")"));
                }
            }
        } catch (SQLException e) {
            throw new PgbenchExit(1, List.of(PgbenchLog.error(PgbenchAbort.libpq(e))));
        }
        return runCommand(s, target);
    }

    /** pgbench's {@code GetTableInfo}: the scale from pgbench_branches, or why the tables cannot be used. */
    private static int tableScale(Connection c, LibpqTarget target) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("select count(*) from pgbench_branches")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            List<String> lines = new ArrayList<>();
            lines.add(PgbenchLog.error("could not count number of branches: " + PgbenchAbort.libpq(e)));
            if ("42P01".equals(e.getSQLState())) {
                lines.add(PgbenchLog.hint("Perhaps you need to do initialization (\"pgbench -i\") in database \""
                        + target.database() + "\"."));
            }
            throw new PgbenchExit(1, lines);
        }
    }

    /** The benchmark as {@code bench-script run} runs it, Gauntlet's console lines kept apart. */
    private int runCommand(PgbenchSettings s, LibpqTarget target) {
        List<String> a = new ArrayList<>(List.of("run", "--url", target.url(), "--user", target.user(),
                "--prime", "0s", "--clients", String.valueOf(s.clients), "-j", String.valueOf(s.jobs),
                "-M", s.protocol, "--max-tries", String.valueOf(s.maxTries)));
        if (s.time > 0) {
            a.addAll(List.of("-T", String.valueOf(s.time)));
        } else {
            a.addAll(List.of("-t", String.valueOf(s.transactions)));
        }
        for (PgbenchSettings.ScriptArgument script : s.scripts) {
            a.addAll(List.of(script.builtin() ? "-b" : "-f", script.argument()));
        }
        s.defines.forEach((k, v) -> a.addAll(List.of("-D", k + "=" + v)));
        if (s.connect) {
            a.addAll(List.of("--pool", "connect"));
        }
        flag(a, s.noVacuum, "-n");
        flag(a, s.vacuumAll, "-v");
        flag(a, s.perCommand, "-r");
        flag(a, s.verboseErrors, "--verbose-errors");
        flag(a, s.failuresDetailed, "--failures-detailed");
        if (s.scaleGiven) {
            a.addAll(List.of("-s", String.valueOf(s.scale)));
        }
        if (s.rate != null) {
            a.addAll(List.of("-R", String.valueOf(s.rate)));
        }
        if (s.latencyLimitMs != null) {
            a.addAll(List.of("-L", String.valueOf(s.latencyLimitMs)));
        }
        if (s.progress > 0) {
            a.addAll(List.of("-P", String.valueOf(s.progress)));
        }
        if (s.seed != null) {
            a.addAll(List.of("--random-seed", Long.toUnsignedString(s.seed)));
        }
        ByteArrayOutputStream gauntletLines = new ByteArrayOutputStream();
        PrintStream console = new PrintStream(gauntletLines, true, StandardCharsets.UTF_8);
        StringWriter failures = new StringWriter();
        PrintStream stdout = System.out;
        BenchmarkCommand.Ended ended;
        try {
            System.setOut(console);
            ended = benchmark.run(a.toArray(String[]::new), new PgbenchConsole(out, err, true, s.debug, !s.log ? null
                    : new PgbenchTransactionLog.Settings(s.logPrefix == null ? "pgbench_log" : s.logPrefix,
                    s.samplingRate, s.aggregateInterval), s.progressTimestamp), new PrintWriter(failures, true));
        } finally {
            System.setOut(stdout);
        }
        int code = ended.exitCode();
        String text = gauntletLines.toString(StandardCharsets.UTF_8);
        Path dir = resultDirectory(text);
        if (dir != null) {
            try {
                Files.writeString(dir.resolve("console.log"), text + failures);
            } catch (IOException e) {
                err.println(PgbenchLog.warning("could not keep Gauntlet's console in " + dir + ": " + e.getMessage()));
            }
        }
        for (String line : failures.toString().split("\n")) {
            if (!line.isBlank()) {
                err.println(PgbenchLog.error(line.startsWith("run: ") ? line.substring(5) : line));
            }
        }
        if (dir != null && Terminal.stderr()) {
            err.println("bench-script: Gauntlet's result.json, report.md and dashboard.html are in " + dir);
        }
        // Gauntlet's 1 is a check that failed or a run that went wrong: pgbench's 2 for a run that went wrong (a client
        // ended on an error), and its 0 for a run that did its work (Gauntlet's checks are in the report, not in
        // pgbench's status).
        if (ended.clientsAborted() > 0) {
            return 2;
        }
        if (code == 0 || code == 1 && dir != null && Files.exists(dir.resolve(ResultFile.NAME))
                && failures.toString().isBlank()) {
            return 0;
        }
        return code == 1 || code == 3 ? 2 : 1;
    }

    private static void flag(List<String> a, boolean on, String option) {
        if (on) {
            a.add(option);
        }
    }

    /** The run's directory, from Gauntlet's {@code Output: DIR} line. */
    private static Path resultDirectory(String console) {
        for (String line : console.split("\n")) {
            if (line.startsWith("Output: ")) {
                String rest = line.substring("Output: ".length());
                int end = rest.indexOf("  ");
                return Path.of(end < 0 ? rest.strip() : rest.substring(0, end));
            }
        }
        return null;
    }
}
