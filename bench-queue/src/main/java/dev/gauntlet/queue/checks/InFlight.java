package dev.gauntlet.queue.checks;

import java.util.Locale;

/**
 * What a driver that died (killed, evicted, out of memory) may have had in flight: each client's last commit, sent
 * and never heard back, so perhaps in the tables and not in the ledger, which records a commit once it is heard. The
 * delivery checks settle such commits against the tables as a run settles those whose outcome it heard was lost,
 * within what the clients could have had in flight: a writer's batch each ({@code writers} batches of at most
 * {@code writeBatch} messages) and a reader's read or acknowledgement each ({@code readers} of at most
 * {@code readBatch}). {@link #NONE} for a run that finished, whose ledger holds every commit its clients made.
 *
 * @param readers the readers that compete for one queue, or the readers of one group's partition (one at a time)
 */
public record InFlight(int writers, int writeBatch, int readers, int readBatch) {

    /** A run that finished: nothing in flight. */
    public static final InFlight NONE = new InFlight(0, 0, 0, 0);

    /** Whether the driver died, so that its clients' last commits may be in the tables and not in the ledger. */
    public boolean driverDied() {
        return writers + readers > 0;
    }

    /** The most messages the writers' commits in flight may have written. */
    public long writeMessages() {
        return (long) writers * writeBatch;
    }

    /** The most messages the readers' commits in flight may have read or acknowledged. */
    public long readMessages() {
        return (long) readers * readBatch;
    }

    /**
     * {@code a batch of 10 from each of 4 writers and a read of 20 from each of 2 readers}, for the lines that say what
     * was settled.
     */
    public String describe() {
        return String.format(Locale.ROOT, "a batch of %d from each of %d writers and a read of %d from each of %d "
                + "readers", writeBatch, writers, readBatch, readers);
    }
}
