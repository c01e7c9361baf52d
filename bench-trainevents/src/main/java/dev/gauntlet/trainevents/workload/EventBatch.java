package dev.gauntlet.trainevents.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * A batch of new events as the add statement binds them: each event's id and the number of its document in the
 * {@link EventCatalogue}, and the time they were emitted.
 */
public final class EventBatch {

    public final UUID[] ids;
    private final Integer[] documents;
    private final long emittedAtMillis;

    private EventBatch(int n, long emittedAtMillis) {
        ids = new UUID[n];
        documents = new Integer[n];
        this.emittedAtMillis = emittedAtMillis;
    }

    /** {@code n} events drawn from {@code random}, emitted at {@code emittedAtMillis}. */
    public static EventBatch draw(SplittableRandom random, int n, long emittedAtMillis) {
        EventBatch b = new EventBatch(n, emittedAtMillis);
        for (int i = 0; i < n; i++) {
            b.ids[i] = RailEvents.uuid(random);
            b.documents[i] = random.nextInt(EventCatalogue.SIZE);
        }
        return b;
    }

    public int size() {
        return ids.length;
    }

    /** Binds the batch to {@link Variant#addSql()}. */
    public void bind(PreparedStatement add, Connection c) throws SQLException {
        add.setLong(1, emittedAtMillis);
        add.setArray(2, c.createArrayOf("uuid", ids));
        add.setArray(3, c.createArrayOf("int4", documents));
    }
}
