package dev.gauntlet.script.workload;

import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.script.lang.PgbenchRandom;
import dev.gauntlet.script.lang.ScriptException;
import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

/**
 * One transaction as pgbench counts one: a pass through a script, its SQL sent in auto-commit as the script says
 * (its own BEGIN and END). Every try starts from the random state the transaction started with, as pgbench's retries
 * do. A script that ends inside a transaction
 * block or a pipeline is an error, as in pgbench.
 */
final class ScriptTransaction implements Operation<Connection> {

    private final CompiledScript script;
    private final ClientState client;
    private final ScriptRun run;
    private final PgbenchRandom startRandom;

    ScriptTransaction(CompiledScript script, ClientState client, ScriptRun run) {
        this.script = script;
        this.client = client;
        this.run = run;
        this.startRandom = client.random.copy();
    }

    @Override
    public String name() {
        return script.operation();
    }

    @Override
    public Commit commit() {
        return Commit.IMPLICIT;
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws Exception {
        if (run.throttled()) {
            attempt.latency(ScriptWorkload.SCHEDULE_LAG, attempt.startLagNanos());
        }
        client.random = startRandom.copy();
        if (run.debugging()) {
            run.debugLine("client " + client.clientId + " executing script \"" + script.title() + "\"");
        }
        Execution x = new Execution(c, client, attempt, run, script.index());
        Instruction[] code = script.code();
        int pc = 0;
        try {
            while (pc < code.length) {
                Instruction in = code[pc];
                x.command = in.command();
                int next;
                if (run.perCommand() && x.command >= 0) {
                    long start = System.nanoTime();
                    next = in.run(x);
                    attempt.latency(script.commandObservation(x.command), System.nanoTime() - start);
                } else {
                    next = in.run(x);
                }
                pc = next == Instruction.NEXT ? pc + 1 : next;
            }
            if (x.pipeline != null) {
                throw new ScriptException("end of script reached with pipeline open");
            }
            if (inTransaction(c)) {
                throw new ScriptException("end of script reached without completing the last transaction");
            }
        } catch (Exception e) {
            run.failed(script, x.command, pc >= 0 && pc < code.length ? code[pc] : null, client.clientId, e);
            if (x.pipeline != null) {
                x.pipeline.close();
            }
            // A block a failed SQL statement aborted ends when the target turns auto-commit off and on again (pgjdbc
            // ends it; the server answers its COMMIT with ROLLBACK); a script error ends the run, closing the session.
            throw e;
        }
        HistoryLedger ledger = run.ledger();
        if (ledger != null && script.writesHistory()) {
            Variables v = client.variables;
            long aid = v.integer("aid");
            long tid = v.integer("tid");
            long bid = v.integer("bid");
            long delta = v.integer("delta");
            attempt.afterCommit(() -> ledger.committed(aid, tid, bid, delta));
        }
    }

    private static boolean inTransaction(Connection c) throws SQLException {
        return !c.isClosed() && c.unwrap(BaseConnection.class).getTransactionState() != TransactionState.IDLE;
    }
}
