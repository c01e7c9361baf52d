package dev.gauntlet.script.workload;

import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.script.lang.QueryMode;
import dev.gauntlet.script.lang.Evaluation;
import dev.gauntlet.script.lang.PgbenchRandom;
import dev.gauntlet.script.lang.ScriptException;
import dev.gauntlet.script.lang.Value;
import java.sql.Connection;
import java.sql.Statement;

/**
 * One try of one transaction: a client running a script on a connection. Expressions evaluate in it (the client's
 * variables and random state; {@code debug()} prints as pgbench's does, on standard error).
 */
final class Execution implements Evaluation {

    final Connection connection;
    final ClientState client;
    final Attempt attempt;
    final QueryMode mode;
    final int scriptIndex;
    int command;
    /** The statements of an open {@code \startpipeline}, sent together at {@code \endpipeline}; null outside one. */
    Statement pipeline;
    final ScriptRun run;

    Execution(Connection connection, ClientState client, Attempt attempt, ScriptRun run, int scriptIndex) {
        this.connection = connection;
        this.client = client;
        this.attempt = attempt;
        this.mode = run.mode();
        this.run = run;
        this.scriptIndex = scriptIndex;
    }

    @Override
    public Value variable(String name) throws ScriptException {
        return client.variables.value(name);
    }

    @Override
    public PgbenchRandom random() {
        return client.random;
    }

    @Override
    public void debug(Value value) {
        run.debug().println("debug(script=" + scriptIndex + ",command=" + (command + 1) + "): " + value.debugText());
    }
}
