package dev.gauntlet.trainevents.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.SplittableRandom;

/**
 * The documents new events are made of, drawn once when the tables are created and kept in the database
 * ({@value Variant#DOCUMENTS}): {@value #SIZE} of them, numbered from 0, each with its flat columns' values. An add
 * sends each new event's id and the number of its document; the statement puts the id and the time emitted in front
 * of the document ({@link RailEvents#payload}). So the driver moves ids and small numbers, as the demo the workload
 * comes from does (its documents are built in SQL), and the database receives, stores, indexes and edits documents
 * of the same kinds and sizes as before, each with its own id and time.
 */
public final class EventCatalogue {

    /** How many documents there are to draw from. */
    public static final int SIZE = 10_000;

    private static final int INSERT_BATCH = 1_000;

    private EventCatalogue() {
    }

    /** The table's definition. */
    static String createStatement() {
        return "CREATE TABLE " + Variant.DOCUMENTS + " (n int PRIMARY KEY, event_type text NOT NULL, "
                + "authority_id text, train_id text, body text NOT NULL)";
    }

    /** Draws the {@value #SIZE} documents from {@code seed} and inserts them (committed with the caller's work). */
    public static void fill(Connection c, long seed) throws SQLException {
        SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + Variant.DOCUMENTS
                + " (n, event_type, authority_id, train_id, body) SELECT * FROM unnest(?::int[], ?::text[], ?::text[], "
                + "?::text[], ?::text[])")) {
            for (int from = 0; from < SIZE; from += INSERT_BATCH) {
                int n = Math.min(INSERT_BATCH, SIZE - from);
                Integer[] numbers = new Integer[n];
                String[] types = new String[n];
                String[] authorities = new String[n];
                String[] trains = new String[n];
                String[] bodies = new String[n];
                for (int i = 0; i < n; i++) {
                    RailEvents.Document d = RailEvents.document(random);
                    numbers[i] = from + i;
                    types[i] = d.type();
                    authorities[i] = d.authorityId();
                    trains[i] = d.trainId();
                    bodies[i] = d.body();
                }
                ps.setArray(1, c.createArrayOf("int4", numbers));
                ps.setArray(2, c.createArrayOf("text", types));
                ps.setArray(3, c.createArrayOf("text", authorities));
                ps.setArray(4, c.createArrayOf("text", trains));
                ps.setArray(5, c.createArrayOf("text", bodies));
                ps.executeUpdate();
            }
        }
    }
}
