package dev.gauntlet.core.cli;

import dev.gauntlet.core.result.ResultFormatException;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * The command-line entry every workload uses: adds the shared {@code report} subcommands and turns every
 * failure into one line and an exit code (0 ok, 1 the run or a check failed, 2 bad usage or input, 3 an internal
 * error: whatever else was thrown, {@code Error}s included; 4 a run, or a merge, that missed an objective of its
 * {@code --slo}). Stack traces only with {@code --verbose}.
 */
public final class GauntletCommandLine {

    private GauntletCommandLine() {
    }

    /** Columns of --help: the longest example line is about 110. */
    static final int HELP_WIDTH = 120;

    public static CommandLine create(Object rootCommand) {
        CommandLine cli = new CommandLine(rootCommand);
        if (rootCommand instanceof WorkloadCommand workload) {
            workload.addCommands(cli);
        }
        if (!cli.getSubcommands().containsKey("report")) {
            cli.addSubcommand("report", new ReportCommand());
        }
        cli.addMixin("verbose", new VerboseOption());
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        // Wide enough that each example in a help footer stays on one line, copyable as typed (after addMixin,
        // so every subcommand gets it).
        cli.setUsageHelpWidth(HELP_WIDTH);
        cli.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println(ex.getCommandLine().getCommandName() + ": " + ex.getMessage()
                    + " (see " + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
            err.flush();
            return ExitCode.BAD_INPUT;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> report(ex, commandLine, parseResult));
        // The last line of defence: picocli hands the handler above only Exceptions; an Error from a library (the
        // font system's InternalError on a host without fonts, a NoClassDefFoundError) would end as a stack trace.
        CommandLine.IExecutionStrategy strategy = cli.getExecutionStrategy();
        cli.setExecutionStrategy(parseResult -> {
            try {
                return strategy.execute(parseResult);
            } catch (CommandLine.ExecutionException | CommandLine.ParameterException e) {
                throw e;
            } catch (RuntimeException | Error e) {
                CommandLine.ParseResult last = parseResult;
                while (last.hasSubcommand()) {
                    last = last.subcommand();
                }
                return report(e, last.commandSpec().commandLine(), parseResult);
            }
        });
        return cli;
    }

    /** One line for a failure, and the exit code that classes it; the stack trace only with --verbose. */
    private static int report(Throwable ex, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        boolean verbose = parseResult.originalArgs().contains("--verbose");
        PrintWriter err = commandLine.getErr();
        int code;
        String message;
        if (ex instanceof BadInputException || ex instanceof ResultFormatException
                || ex instanceof IllegalArgumentException) {
            code = ExitCode.BAD_INPUT;
            message = ex.getMessage();
        } else if (ex instanceof RunFailedException) {
            code = ExitCode.FAILED;
            message = ex.getMessage();
        } else {
            code = ExitCode.INTERNAL;
            message = "internal error, " + ex.getClass().getSimpleName() + ": " + ex.getMessage()
                    + (verbose ? "" : " (run with --verbose for the stack trace, and report it)");
        }
        err.println(commandLine.getCommandName() + ": " + oneLine(message));
        if (verbose) {
            ex.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    /** Runs the command and exits the JVM with its code: the main method of every workload jar. */
    public static void main(Object rootCommand, String[] args) {
        int code = create(rootCommand).execute(args);
        System.out.flush();
        System.exit(code);
    }

    static String oneLine(String message) {
        if (message == null) {
            return "failed";
        }
        return message.replaceAll("\\s*\\R\\s*", "; ").trim();
    }
}
