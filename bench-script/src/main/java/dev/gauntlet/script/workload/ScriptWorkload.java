package dev.gauntlet.script.workload;

import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.OperationLog;
import dev.gauntlet.core.run.Step;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.script.lang.ScriptChoice;
import java.sql.Connection;
import java.util.List;
import java.util.SplittableRandom;

/**
 * pgbench's scripts as the runner's workload: each client runs transactions back to back (or on the {@code -R}
 * schedule), each a script chosen by weight as pgbench chooses, with its own variables ({@code -D}'s, {@code :scale},
 * {@code :client_id}, {@code :random_seed}, {@code :default_seed}) and random states drawn as pgbench draws them.
 */
public final class ScriptWorkload implements Workload<Connection> {

    /** The observation of each transaction's lag behind its schedule (actual start minus intended start), with -R. */
    public static final String SCHEDULE_LAG = "schedule lag";

    private final List<CompiledScript> scripts;
    private final ScriptRun run;
    private final PgbenchSeeding seeding;
    private final ScriptChoice choice;
    private final int firstClient;
    private OperationLog log;

    /**
     * @param choice      pgbench's choice among the scripts, in the same order as {@code scripts}
     * @param firstClient the {@code :client_id} of this process's first client (a {@code --worker} process runs
     *                    clients {@code firstClient..}; 0 for a whole run)
     */
    public ScriptWorkload(List<CompiledScript> scripts, ScriptChoice choice, ScriptRun run, PgbenchSeeding seeding,
                          int firstClient) {
        this.scripts = List.copyOf(scripts);
        this.choice = choice;
        this.run = run;
        this.seeding = seeding;
        this.firstClient = firstClient;
    }

    /** Each transaction's end written to {@code log} (pgbench's {@code -l}); the run closes it. */
    public ScriptWorkload logTo(OperationLog log) {
        this.log = log;
        return this;
    }

    @Override
    public OperationLog operationLog() {
        return log;
    }

    @Override
    public List<String> operationNames() {
        return scripts.stream().map(CompiledScript::operation).toList();
    }

    @Override
    public ClientScript<Connection> client(int index, int clients, SplittableRandom random) {
        ClientState client = seeding.client(firstClient + index);
        return () -> Step.now(new ScriptTransaction(choose(client), client, run));
    }

    /** pgbench's choice: a uniform draw below the total weight from the chooser, when there are several. */
    private CompiledScript choose(ClientState client) {
        return scripts.get(choice.needsDraw() ? choice.pick(client.chooser.nextLong(0, choice.totalWeight() - 1)) : 0);
    }
}
