package dev.gauntlet.core.host;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A program run to completion on this machine, the one way Gauntlet does it: stdin empty, stdout and stderr together
 * into a file (so a talkative program never blocks on a full pipe), bounded by a time limit after which it is killed,
 * and its outcome as data; or, with {@link #start}, started beside Gauntlet (PgBouncer, Toxiproxy, a child process
 * read as it writes). Optionally in a directory, with variables set ({@code LC_ALL=C}: messages in English).
 *
 * <p>A program Gauntlet starts gets an environment Gauntlet chose: of the caller's variables only those that say
 * where programs are and whose account this is ({@link #KEPT}), then what the command sets. A user's
 * {@code PGPASSWORD} once kept a Patroni lab from ever coming up (libpq prefers it to the lab's password file, so
 * every replica's {@code pg_basebackup} failed to authenticate); {@code PGHOST}, {@code PGOPTIONS},
 * {@code ETCDCTL_ENDPOINTS}, {@code PATRONI_*} or {@code PYTHONPATH} would change what the lab's programs do just the
 * same. A command the user wrote (a plan's {@code command} disruption) runs with the caller's whole environment
 * instead: {@link #withCallersEnvironment}.
 *
 * <pre>{@code
 * HostCommand.Outcome o = HostCommand.of("fsfreeze", "-f", "/mnt/x").within(Duration.ofMinutes(2)).run();
 * if (!o.succeeded()) throw new IOException(o.failure());
 * }</pre>
 */
public final class HostCommand {

    /**
     * The caller's variables a started program keeps: where programs are, whose account, its shell and home, the
     * temporary directory, time zone, language and terminal. Nothing else of the caller's reaches it.
     */
    public static final Set<String> KEPT = Set.of("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TZ", "LANG",
            "TERM");

    private final List<String> command;
    private Duration limit = Duration.ofSeconds(60);
    private Path directory;
    private boolean callersEnvironment;
    private final Map<String, String> environment = new LinkedHashMap<>();
    private boolean wholeTree;

    private HostCommand(List<String> command) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("no command");
        }
        this.command = List.copyOf(command);
    }

    public static HostCommand of(List<String> command) {
        return new HostCommand(command);
    }

    public static HostCommand of(String... command) {
        return new HostCommand(List.of(command));
    }

    /** Killed, and the outcome {@link Outcome#timedOut}, when it runs longer (default 60 s). */
    public HostCommand within(Duration time) {
        this.limit = time;
        return this;
    }

    public HostCommand in(Path workingDirectory) {
        this.directory = workingDirectory;
        return this;
    }

    /**
     * With the caller's whole environment, for a command the user wrote and means to run as in their own shell (a
     * plan's {@code command} disruption); every program Gauntlet chooses runs without it.
     */
    public HostCommand withCallersEnvironment() {
        callersEnvironment = true;
        return this;
    }

    public HostCommand env(String name, String value) {
        environment.put(name, value);
        return this;
    }

    public HostCommand env(Map<String, String> variables) {
        environment.putAll(variables);
        return this;
    }

    /**
     * When killed (time limit, interrupt), its descendants are killed too: a shell's commands, which would otherwise
     * run on after the shell. Off by default: a program that starts a server on purpose (pg_ctl) must not take it down.
     */
    public HostCommand killingItsChildren() {
        wholeTree = true;
        return this;
    }

    public List<String> command() {
        return command;
    }

    /**
     * Runs it and waits. Throws {@link IOException} when it cannot start; {@link InterruptedException} when the
     * waiting thread is interrupted (the program is killed first).
     */
    public Outcome run() throws IOException, InterruptedException {
        Path output = Files.createTempFile("gauntlet-command-", ".out");
        try {
            Process process = builder(ProcessBuilder.Redirect.to(output.toFile()), null).start();
            boolean finished;
            try {
                finished = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                kill(process);
                throw e;
            }
            if (!finished) {
                kill(process);
                process.waitFor(5, TimeUnit.SECONDS);
            }
            return new Outcome(this, finished ? process.exitValue() : -1, !finished,
                    Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private void kill(Process process) {
        if (wholeTree) {
            // Children first, listed while the parent is alive (once it is gone they are reparented and lost).
            process.descendants().forEach(ProcessHandle::destroyForcibly);
        }
        process.destroyForcibly();
    }

    /**
     * Starts it and returns at once, for a program that runs beside Gauntlet (a server, or a child read as it runs);
     * the time limit does not apply: the caller ends it. Stdin is empty and the environment as set here.
     *
     * @param output where stdout goes ({@code Redirect.appendTo(log)}, {@code DISCARD}, {@code PIPE})
     * @param errors where stderr goes; null: with stdout
     */
    public Process start(ProcessBuilder.Redirect output, ProcessBuilder.Redirect errors) throws IOException {
        return builder(output, errors).start();
    }

    private ProcessBuilder builder(ProcessBuilder.Redirect output, ProcessBuilder.Redirect errors) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(output)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (errors == null) {
            builder.redirectErrorStream(true);
        } else {
            builder.redirectError(errors);
        }
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        if (!callersEnvironment) {
            builder.environment().keySet().retainAll(KEPT);
        }
        builder.environment().putAll(environment);
        return builder;
    }

    /** What a program did: its exit code (-1 when it timed out and was killed) and everything it printed. */
    public record Outcome(HostCommand ran, int exitCode, boolean timedOut, String output) {

        public boolean succeeded() {
            return !timedOut && exitCode == 0;
        }

        /** The last {@code count} lines it printed (fewer when it printed fewer), without trailing blank lines. */
        public List<String> lastLines(int count) {
            List<String> lines = output.strip().isEmpty() ? List.of() : output.stripTrailing().lines().toList();
            return lines.subList(Math.max(0, lines.size() - count), lines.size());
        }

        /** One line saying why it did not succeed, with the end of its output. */
        public String failure() {
            String said = output.strip().replaceAll("\\s*\\n\\s*", " / ");
            if (said.length() > 400) {
                said = "..." + said.substring(said.length() - 400);
            }
            return String.join(" ", ran.command) + (timedOut ? " did not finish within " + ran.limit.toSeconds() + " s"
                    : " failed (exit " + exitCode + ")") + (said.isEmpty() ? "" : ": " + said);
        }
    }
}
