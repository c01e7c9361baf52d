package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.SqlStates;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code init} of a {@link SqlSchema}: creates and loads its tables in one transaction, never half-loaded. */
@Command(name = "init", mixinStandardHelpOptions = true)
final class InitTables<L> implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--drop", description = "Drop what is loaded first.")
    boolean drop;

    private final SqlSchema<L> definition;

    InitTables(SqlSchema<L> definition) {
        this.definition = definition;
    }

    @Override
    public Integer call() {
        connection.refuseCluster();
        try (Database db = connection.open(definition.name(), System.out)) {
            load(definition, db, drop);
            return ExitCode.OK;
        }
    }

    /** Loads unless something is loaded (then refuses, unless {@code drop}); in one transaction. */
    static <L> L load(SqlSchema<L> definition, Database db, boolean drop) {
        try (Connection c = db.settings().connectForAdmin()) {
            c.setAutoCommit(false);
            if (drop) {
                definition.drop(c);
            } else {
                L there = definition.loaded(c);
                if (there != null) {
                    throw new BadInputException("already loaded: " + definition.describe(there)
                            + "; init --drop replaces it");
                }
            }
            long start = System.nanoTime();
            L loaded = definition.load(c);
            c.commit();
            System.out.printf(Locale.ROOT, "Loaded %s in %.1f s%n", definition.describe(loaded),
                    (System.nanoTime() - start) / 1e9);
            return loaded;
        } catch (SQLException e) {
            throw new RunFailedException("load failed: " + SqlStates.message(e), e);
        }
    }
}
