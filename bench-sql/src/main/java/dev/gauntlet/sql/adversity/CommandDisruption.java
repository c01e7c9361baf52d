package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.host.HostCommand;
import dev.gauntlet.core.result.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The user's own commands as a disruption ({@code kind: command}): {@code start} at the planned time, {@code stop}
 * after the length, {@code undo} at the end of the run (even after a failure or Ctrl-C), each through {@code sh -c} on
 * the driver's machine, in the plan file's directory, with the driver's environment and {@link CommandEnvironment}'s
 * variables, killed with every process it started when it outlasts {@code timeout}. Each step's exit status and the
 * last {@value #TAIL} lines of its output are notes of the disruption's record; a step that fails or times out fails
 * the disruption, and the run goes on.
 */
final class CommandDisruption extends SystemDisruption {

    /** How many of a step's last output lines its record keeps. */
    static final int TAIL = 20;

    /** A step that did not succeed, said in one line (no exception class in the record's note). */
    static final class CommandFailedException extends Exception {
        CommandFailedException(String message) {
            super(message);
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }

    private final ScheduledDisruption scheduled;
    private final Path directory;
    private final Duration timeout;

    CommandDisruption(ScheduledDisruption scheduled, SystemUnderTest system, Path directory) {
        super(scheduled.name(), system);
        this.scheduled = scheduled;
        this.directory = directory;
        this.timeout = scheduled.spec().durationOption("timeout");
    }

    @Override
    public void start(Log log) throws Exception {
        run("start", log);
    }

    @Override
    public void stop(Log log) throws Exception {
        run("stop", log);
    }

    @Override
    public void undo(Log log) throws Exception {
        run("undo", log);
    }

    /** Runs one step's command, if the plan gives one; throws when it fails or outlasts its time limit. */
    private void run(String step, Log log) throws Exception {
        String command = scheduled.spec().option(step);
        if (command.isBlank()) {
            return;
        }
        // The user's own command, run as in their shell (their PGPASSWORD, kubectl's KUBECONFIG), with ours beside.
        HostCommand shell = HostCommand.of("sh", "-c", command).withCallersEnvironment().within(timeout)
                .killingItsChildren()
                .env(CommandEnvironment.of(scheduled, step, system.hosts()));
        if (directory != null) {
            shell.in(directory);
        }
        long t0 = System.nanoTime();
        HostCommand.Outcome outcome;
        try {
            outcome = shell.run();
        } catch (InterruptedException e) {
            log.note(step + ": killed, the run ended while it ran: " + oneLine(command));
            throw e;
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        String status = outcome.timedOut()
                ? "did not finish within " + Durations.format(timeout) + ", killed"
                : "exit " + outcome.exitCode();
        log.note(String.format(Locale.ROOT, "%s: %s in %.1f s: %s", step, status, seconds, oneLine(command)));
        List<String> tail = outcome.lastLines(TAIL);
        tail.forEach(line -> log.note(step + "| " + line));
        if (!outcome.succeeded()) {
            throw new CommandFailedException(step + " " + status);
        }
    }

    /** A command as one line for a note: lines joined with "; ", cut at 200 characters. */
    static String oneLine(String command) {
        String line = command.strip().replaceAll("\\s*\\n\\s*", "; ");
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}
