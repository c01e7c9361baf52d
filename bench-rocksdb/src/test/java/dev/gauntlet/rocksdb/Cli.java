package dev.gauntlet.rocksdb;

import dev.gauntlet.core.cli.GauntletCommandLine;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the bench-rocksdb command line in this JVM and keeps what it printed to stderr. */
final class Cli {

    final int exitCode;
    final String err;

    private Cli(int exitCode, String err) {
        this.exitCode = exitCode;
        this.err = err;
    }

    static Cli run(String... args) {
        CommandLine cli = GauntletCommandLine.create(new RocksDbCommand());
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Cli(code, err.toString());
    }
}
