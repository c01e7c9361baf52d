package dev.gauntlet.queue.workqueue;

import dev.gauntlet.core.run.ClientId;
import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Step;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.queue.pubsub.PubSubWorkload;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A work queue: {@value PubSubWorkload#WRITERS} insert batches of messages into one table; the
 * {@value PubSubWorkload#READERS} compete for them, each message going to one reader only, claimed with
 * {@code FOR UPDATE SKIP LOCKED} and acknowledged in the same transaction as the {@link AckMode} says. A reader whose
 * poll claimed nothing waits {@code pollInterval} before the next. The roles are named as in pub/sub, so a command
 * line and its reports read alike in both modes.
 */
public final class WorkQueueWorkload implements Workload<Connection> {

    public static final String WRITE = Enqueue.NAME;
    public static final String READ = Dequeue.NAME;

    private final int writeBatch;
    private final int readBatch;
    private final int payloadBytes;
    private final Duration pollInterval;
    private final AckMode mode;
    private final AckLedger ledger;

    public WorkQueueWorkload(int writeBatch, int readBatch, int payloadBytes, Duration pollInterval, AckMode mode,
                             AckLedger ledger) {
        this.writeBatch = writeBatch;
        this.readBatch = readBatch;
        this.payloadBytes = payloadBytes;
        this.pollInterval = pollInterval;
        this.mode = mode;
        this.ledger = ledger;
    }

    @Override
    public List<String> observedLatencies() {
        return List.of("endToEnd");
    }

    @Override
    public List<String> operationNames() {
        return List.of(WRITE, READ);
    }

    @Override
    public ClientScript<Connection> client(ClientId client, SplittableRandom random) {
        if (PubSubWorkload.WRITERS.equals(client.role())) {
            byte[] payload = new byte[payloadBytes];
            random.nextBytes(payload);
            Step<Connection> write = Step.now(new Enqueue(writeBatch, payload, ledger));
            return () -> write;
        }
        if (!PubSubWorkload.READERS.equals(client.role())) {
            throw new IllegalArgumentException("a work queue has " + PubSubWorkload.WRITERS + " and "
                    + PubSubWorkload.READERS + ", not " + client.role());
        }
        Dequeue read = new Dequeue(readBatch, mode, ledger);
        Step<Connection> now = Step.now(read);
        Step<Connection> later = Step.after(pollInterval, read);
        return () -> read.lastWasEmpty() ? later : now;
    }

    public AckMode mode() {
        return mode;
    }
}
