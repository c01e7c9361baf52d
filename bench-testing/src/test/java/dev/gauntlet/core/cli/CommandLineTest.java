package dev.gauntlet.core.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gauntlet.core.metrics.IntervalLog;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line as a user meets it: a real run, and every kind of bad input. */
@ExtendWith(PostgresExtension.class)
class CommandLineTest {

    static TestDatabase db;

    @TempDir
    Path tmp;

    @BeforeAll
    static void database(TestDatabase server) {
        db = server.freshDatabase("cli_test");
    }

    /** Exit code, stdout and stderr of one invocation. */
    record Outcome(int code, String out, String err) {
    }

    private static Outcome execute(String... args) {
        StringWriter err = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            CommandLine cli = GauntletCommandLine.create(new SelectCommand());
            cli.setErr(new PrintWriter(err, true));
            int code = cli.execute(args);
            return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(saved);
        }
    }

    private List<String> urlArgs(String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--url", db.jdbcUrl(), "--user", db.user()));
        if (db.password() != null) {
            args.add("--password=" + db.password());
        }
        args.addAll(List.of(more));
        return args;
    }

    private Outcome run(String... more) {
        return execute(urlArgs(more).toArray(String[]::new));
    }

    private static void assertOneLineBadInput(Outcome o, String expected) {
        assertEquals(ExitCode.BAD_INPUT, o.code(), o.err());
        assertEquals(1, o.err().strip().lines().count(), "one line, no stack trace: " + o.err());
        assertTrue(o.err().contains(expected), o.err());
    }

    @Test
    void aRunWritesResultReportChartsAndIntervalLog() throws Exception {
        Path out = tmp.resolve("run");
        Outcome o = run("--clients", "2", "--duration", "2s", "--warmup", "1s", "--report-every", "1s",
                "--out", out.toString(), "--password=not-the-real-one-but-trust-auth-ignores-it");
        assumeTrue(o.code() == 0 || !o.err().contains("authentication"), "server checks passwords: " + o.err());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("ops/sec(inst)"), "progress lines are printed: " + o.out());
        assertTrue(o.out().contains("warm-up ended"), o.out());
        RunResult r = ResultFile.read(out);
        assertEquals("select", r.workload());
        assertTrue(r.operation("select").orElseThrow().count() > 0);
        assertEquals(2.0, r.measuredSeconds(), 0.5);
        assertFalse(Files.readString(out.resolve("result.json")).contains("not-the-real-one"), "password stored");
        assertTrue(r.command().contains("--password=****"), r.command());
        assertTrue(Files.readString(out.resolve("report.md")).matches("(?s).*\\| elapsed \\| op +\\| clients \\|.*"));
        assertTrue(Files.size(out.resolve("throughput.png")) > 0);
        // The interval log is HdrHistogram's format: its own reader reads it back, tagged by operation.
        HistogramLogReader reader = new HistogramLogReader(out.resolve(IntervalLog.FILE_NAME).toFile());
        org.HdrHistogram.EncodableHistogram h = reader.nextIntervalHistogram();
        assertTrue(h != null && "select".equals(h.getTag()) && h.getStartTimeStamp() >= 0, "hlog readable");
    }

    @Test
    void unknownFlag() {
        assertOneLineBadInput(execute("run", "--no-such-flag"), "Unknown option: '--no-such-flag'");
    }

    @Test
    void zeroOrNegativeClients() {
        assertOneLineBadInput(run("--clients", "0"), "--clients must be at least 1 (got 0)");
        assertOneLineBadInput(run("--clients", "-3"), "--clients must be at least 1 (got -3)");
    }

    @Test
    void malformedDuration() {
        assertOneLineBadInput(run("--duration", "ten"), "'ten' is not a duration");
    }

    @Test
    void unreachableDatabase() {
        Outcome o = execute("run", "--url", "jdbc:postgresql://127.0.0.1:1/nowhere", "--password", "s3cret-pw",
                "--out", tmp.resolve("never").toString());
        assertOneLineBadInput(o, "cannot reach the database at jdbc:postgresql://127.0.0.1:1/nowhere");
        assertFalse(o.err().contains("s3cret-pw") || o.out().contains("s3cret-pw"), "password printed");
        assertFalse(Files.exists(tmp.resolve("never")), "nothing written for a run that never started");
    }

    @Test
    void notAJdbcUrl() {
        assertOneLineBadInput(execute("run", "--url", "postgres://localhost/x"), "is not a JDBC URL");
    }

    @Test
    void unwritableOut() throws Exception {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        assertOneLineBadInput(run("--out", file.resolve("sub").toString()), "cannot write to --out");
        assertOneLineBadInput(run("--out", file.toString()), "is a file, not a directory");
    }

    @Test
    void outThatAlreadyHoldsAResultIsRefused() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("taken"));
        Files.writeString(out.resolve("result.json"), "{}");
        assertOneLineBadInput(run("--out", out.toString()), "already holds a result.json");
        assertEquals("{}", Files.readString(out.resolve("result.json")), "the old result is untouched");
    }

    @Test
    void wrongPassword() throws Exception {
        requirePasswordUser();
        Outcome o = execute("run", "--url", db.jdbcUrl(), "--user", "gauntlet_pw", "--password", "wrong-password",
                "--out", tmp.resolve("never").toString());
        assertOneLineBadInput(o, "authentication failed for user 'gauntlet_pw'");
        assertFalse(o.err().contains("wrong-password"), "password printed");
        assertFalse(Files.exists(tmp.resolve("never")));
    }

    @Test
    void corruptFileGivenToCompare() throws Exception {
        Path bad = Files.writeString(tmp.resolve("result.json"), "{\"not\": \"ours\"}");
        Outcome o = execute("report", "compare", bad.toString(), bad.toString());
        assertEquals(ExitCode.BAD_INPUT, o.code(), o.err());
        assertTrue(o.err().contains("not a Gauntlet result"), o.err());
    }

    /**
     * A role that must give its password: PostgreSQL's default test servers trust local connections, so the
     * test adds a scram-sha-256 rule for this one role to pg_hba.conf (superuser only; skipped otherwise).
     */
    private static void requirePasswordUser() throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("select rolsuper from pg_roles where rolname = current_user")) {
                rs.next();
                assumeTrue(rs.getBoolean(1), "needs a superuser to add a password rule to pg_hba.conf");
            }
            s.execute("drop role if exists gauntlet_pw");
            s.execute("create role gauntlet_pw login password 'right-password'");
            String hba;
            try (ResultSet rs = s.executeQuery("select pg_read_file(current_setting('hba_file'))")) {
                rs.next();
                hba = rs.getString(1);
            }
            if (!hba.contains("gauntlet_pw")) {
                String rules = "host all gauntlet_pw 127.0.0.1/32 scram-sha-256\nhost all gauntlet_pw ::1/128 scram-sha-256\n";
                String content = (rules + hba).replace('\t', ' ');
                s.execute("copy (select unnest(string_to_array($hba$" + content + "$hba$, E'\\n'))) to '"
                        + hbaFile(s) + "'");
                s.execute("select pg_reload_conf()");
            }
        }
    }

    private static String hbaFile(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("show hba_file")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
