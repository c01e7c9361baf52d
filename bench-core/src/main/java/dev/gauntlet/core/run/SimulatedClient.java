package dev.gauntlet.core.run;

import dev.gauntlet.core.metrics.OperationStats;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;

/** One simulated client; served by at most one worker at a time (it is out of the queue while served). */
final class SimulatedClient<S> implements Delayed {
    final int index;
    final RoleRun<S> role;
    final ClientScript<S> script;
    final Attempt observed = new Attempt();
    S session;
    Operation<S> pending;
    /** The stats of the last operation name seen: most scripts repeat a few names, so lookups are rare. */
    String statsName;
    OperationStats opStats;
    long notBefore;
    long wakeAt;
    long intended;
    long firstIntended;
    long firstStart;
    long lastEnd;
    int attempt;
    int reconnects;
    long opens;
    long completed;
    boolean scriptEnded;
    boolean done;

    private final RunStats stats;

    SimulatedClient(int index, RoleRun<S> role, ClientScript<S> script, RunStats stats) {
        this.index = index;
        this.role = role;
        this.script = script;
        this.stats = stats;
    }

    OperationStats statsOf(Operation<S> op) {
        String name = op.name();
        if (name != statsName) { // identity first: operation names are usually constants
            opStats = stats.stats(name, role.role.name());
            statsName = name;
        }
        return opStats;
    }

    @Override
    public long getDelay(TimeUnit unit) {
        return unit.convert(wakeAt - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed o) {
        @SuppressWarnings("unchecked")
        SimulatedClient<S> other = (SimulatedClient<S>) o;
        return Long.compare(wakeAt, other.wakeAt);
    }

    /** The operation the script would run next, drawn for an open-loop slot no client took; null once it ended. */
    String drawOperationName() {
        try {
            Step<S> step = script.next();
            if (step == null) {
                scriptEnded = true;
                return null;
            }
            return step.operation().name();
        } catch (RuntimeException e) {
            scriptEnded = true;
            return null;
        }
    }
}
