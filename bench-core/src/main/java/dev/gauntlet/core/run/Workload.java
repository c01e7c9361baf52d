package dev.gauntlet.core.run;

import java.util.List;
import java.util.SplittableRandom;

/**
 * A workload as the runner sees it: a script per client. It knows SQL (or keys and values) and business rules; it
 * never touches threads, clocks, histograms, retries or reconnects.
 *
 * <p>A workload with one kind of client implements {@link #client(int, int, SplittableRandom)}; one with several
 * roles (writers and readers) implements {@link #client(ClientId, SplittableRandom)}.
 */
public interface Workload<S> {

    /** Operation names in display order; operations not listed still get recorded, after these. */
    List<String> operationNames();

    /**
     * The script for client {@code index} (0-based) of {@code clients}, in a workload of one role. {@code random}
     * is seeded from the run's seed and the client, so a run with the same seed makes the same choices.
     */
    default ClientScript<S> client(int index, int clients, SplittableRandom random) {
        throw new UnsupportedOperationException(getClass().getName()
                + " implements neither client(index, clients, random) nor client(ClientId, random)");
    }

    /** The script for a client of a role; by default, a single-role workload's script for the client's index. */
    default ClientScript<S> client(ClientId client, SplittableRandom random) {
        return client(client.index(), client.roleClients(), random);
    }

    /**
     * The latencies the operations observe besides their own (a queue's {@code endToEnd}), by the names they record
     * them under: objectives ({@code --slo 'p99(endToEnd) <= 100ms'}) may name them. Default: none.
     */
    default List<String> observedLatencies() {
        return List.of();
    }

    /** Where each operation's end is told as it happens ({@link OperationLog}), or null (the default): none. */
    default OperationLog operationLog() {
        return null;
    }

    /** Every client runs {@code operation} back to back: a microbenchmark, or a test of the machinery around it. */
    static <S> Workload<S> repeating(Operation<S> operation) {
        Step<S> step = Step.now(operation);
        return new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of(operation.name());
            }

            @Override
            public ClientScript<S> client(int index, int clients, SplittableRandom random) {
                return () -> step;
            }
        };
    }
}
