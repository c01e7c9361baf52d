package dev.gauntlet.sql.server;

import dev.gauntlet.core.host.HostCommand;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs PostgreSQL's tools (initdb, pg_ctl) for a {@link LocalPostgres}: as the server account, with their output
 * captured, their environment cleared of {@code PG*} variables, and their duration bounded; a failure becomes one
 * line naming the step, quoting the tool's last lines and what the server logged meanwhile.
 */
final class PostgresTool {

    private static final Logger log = LoggerFactory.getLogger(PostgresTool.class);
    /** How many of the tool's last lines a failure quotes. */
    private static final int TAIL_LINES = 6;

    private final ServerAccount account;
    private final ServerLog serverLog;
    private final Duration limit;

    /** What a tool did: its name (and first argument), exit code and output. */
    record Outcome(String tool, int exitCode, String output) {
        boolean succeeded() {
            return exitCode == 0;
        }
    }

    PostgresTool(ServerAccount account, ServerLog serverLog, Duration limit) {
        this.account = account;
        this.serverLog = serverLog;
        this.limit = limit;
    }

    Outcome run(List<String> argv) {
        String tool = Path.of(argv.get(0)).getFileName() + (argv.size() > 1 ? " " + argv.get(1) : "");
        // The tools see only our arguments (HostCommand keeps PGDATA, PGPORT and friends out); LC_ALL=C keeps their
        // messages in English.
        HostCommand command = HostCommand.of(account.command(argv)).in(Path.of("/"))
                .env("LC_ALL", "C").within(limit);
        try {
            log.debug("running {}", command.command());
            HostCommand.Outcome ran = command.run();
            if (ran.timedOut()) {
                throw new LocalPostgresException(tool + " did not finish within " + limit.toSeconds()
                        + " s; server log " + serverLog.file() + ": " + serverLog.tail(-1));
            }
            return new Outcome(tool, ran.exitCode(), ran.output());
        } catch (IOException e) {
            throw new LocalPostgresException("could not run " + tool + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalPostgresException("interrupted while running " + tool, e);
        }
    }

    /** The step {@code what} failed: the tool's exit, its last lines, and the server's log since {@code logMark}. */
    LocalPostgresException failure(String what, Outcome outcome, long logMark) {
        StringBuilder message = new StringBuilder(what).append(" (").append(outcome.tool())
                .append(" exited ").append(outcome.exitCode()).append(")");
        String toolOutput = ServerLog.oneLine(ServerLog.lastLines(outcome.output(), TAIL_LINES));
        if (!toolOutput.isEmpty()) {
            message.append(": ").append(toolOutput);
        }
        String logged = serverLog.tail(logMark);
        if (!logged.isEmpty()) {
            message.append("; server log ").append(serverLog.file()).append(": ").append(logged);
        }
        return new LocalPostgresException(message.toString());
    }
}
