package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.sql.Rendezvous;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/**
 * A workload's {@code drop} command: the subclass carries the {@code @Command} annotation and says what its tables
 * are and how to drop them; connecting, the message and the exit code are the same for every workload, and so is
 * dropping what split runs left ({@link Rendezvous#drop}).
 */
public abstract class DropCommand implements Callable<Integer> {

    @Mixin
    protected ConnectionOptions connection;

    private final String database;
    private final String what;

    /**
     * @param database the embedded database's name
     * @param what     what is dropped, for the message ({@code the kv table})
     */
    protected DropCommand(String database, String what) {
        this.database = database;
        this.what = what;
    }

    protected abstract void drop(Connection c) throws SQLException;

    @Override
    public Integer call() {
        return connection.admin(database, "drop", c -> {
            drop(c);
            Rendezvous.drop(c);
            System.out.println("Dropped " + what + ".");
            return ExitCode.OK;
        });
    }
}
