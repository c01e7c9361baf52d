package dev.gauntlet.trainevents.workload;

import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Step;
import dev.gauntlet.core.run.Workload;
import java.sql.Connection;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Every client runs the lifecycle over and over: after a jittered delay (0.5 to 1.5 times {@code --delay}) it adds a
 * batch of {@code --min-batch}..{@code --max-batch} events, processes, and archives.
 */
public final class TrainEventsWorkload implements Workload<Connection> {

    /** The workload's shape, the same for every variant and pool mode. */
    public record Shape(int minBatch, int maxBatch, long delayNanos, long lockHoldNanos, double failShare) {
    }

    private final Variant variant;
    private final EventLedger ledger;
    private final Shape shape;

    public TrainEventsWorkload(Variant variant, EventLedger ledger, Shape shape) {
        this.variant = variant;
        this.ledger = ledger;
        this.shape = shape;
    }

    @Override
    public List<String> operationNames() {
        return List.of(Lifecycle.ADD, Lifecycle.PROCESS, Lifecycle.ARCHIVE);
    }

    @Override
    public ClientScript<Connection> client(int index, int clients, SplittableRandom random) {
        Lifecycle cycle = new Lifecycle(variant, ledger, random, shape.failShare(), shape.lockHoldNanos());
        return new ClientScript<>() {
            private int step;

            @Override
            public Step<Connection> next() {
                switch (step++ % 3) {
                    case 0 -> {
                        int batch = shape.minBatch() + random.nextInt(shape.maxBatch() - shape.minBatch() + 1);
                        long delay = shape.delayNanos() == 0 ? 0
                                : (long) (shape.delayNanos() * (0.5 + random.nextDouble()));
                        cycle.begin(batch, delay);
                        return new Step<>(cycle.add, delay);
                    }
                    case 1 -> {
                        return Step.now(cycle.process);
                    }
                    default -> {
                        return Step.now(cycle.archive);
                    }
                }
            }
        };
    }
}
