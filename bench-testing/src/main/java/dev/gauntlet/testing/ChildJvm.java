package dev.gauntlet.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A workload's command line in a JVM of its own, started with the test's classpath: for what the test's JVM cannot
 * do to itself (be killed with SIGKILL mid-run, run under a smaller {@code ulimit -n} or heap).
 */
public final class ChildJvm {

    private ChildJvm() {
    }

    /**
     * {@code java [jvmOptions] -cp <the test's classpath> main command --url ... args} against {@code db}, as
     * {@link CommandRun} runs it in the test's JVM.
     */
    public static List<String> command(Class<?> main, List<String> jvmOptions, TestDatabase db, String command,
                                       String... args) {
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        line.addAll(jvmOptions);
        line.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        line.addAll(CommandRun.arguments(db, command, args));
        return line;
    }

    /** Starts {@code command}, its standard output and error into {@code log}. */
    public static Process start(List<String> command, Path log) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
