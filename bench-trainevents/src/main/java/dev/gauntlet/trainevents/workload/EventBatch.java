package dev.gauntlet.trainevents.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.SplittableRandom;
import java.util.UUID;

/** A batch of new events as the add statement binds them: column arrays, one element per event. */
public final class EventBatch {

    public final UUID[] ids;
    private final String[] payloads;
    private final String[] types;
    private final String[] authorities;
    private final String[] trains;

    private EventBatch(int n) {
        ids = new UUID[n];
        payloads = new String[n];
        types = new String[n];
        authorities = new String[n];
        trains = new String[n];
    }

    /** {@code n} events drawn from {@code random}, emitted at {@code emittedAtMillis}. */
    public static EventBatch draw(SplittableRandom random, int n, long emittedAtMillis) {
        EventBatch b = new EventBatch(n);
        for (int i = 0; i < n; i++) {
            RailEvents.RailEvent e = RailEvents.next(random, emittedAtMillis);
            b.ids[i] = e.id();
            b.payloads[i] = e.payload();
            b.types[i] = e.type();
            b.authorities[i] = e.authorityId();
            b.trains[i] = e.trainId();
        }
        return b;
    }

    public int size() {
        return ids.length;
    }

    /** Binds the batch to the variant's {@link Variant#addSql()}. */
    public void bind(PreparedStatement add, Connection c, Variant v) throws SQLException {
        add.setArray(1, c.createArrayOf("uuid", ids));
        add.setArray(2, c.createArrayOf("text", payloads));
        if (v.fillsFlatColumns()) {
            add.setArray(3, c.createArrayOf("text", types));
            add.setArray(4, c.createArrayOf("text", authorities));
            add.setArray(5, c.createArrayOf("text", trains));
        }
    }
}
