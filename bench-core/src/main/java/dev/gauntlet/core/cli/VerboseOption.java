package dev.gauntlet.core.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** {@code --verbose}, accepted by every command: show stack traces with errors. */
public final class VerboseOption {

    @Option(names = "--verbose", scope = ScopeType.INHERIT,
            description = "Print stack traces with errors (for bug reports).")
    boolean verbose;
}
