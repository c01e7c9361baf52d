package dev.gauntlet.queue.workqueue;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a reader acknowledges the messages it claimed, the choice that decides what a work queue costs: deleting them
 * keeps the table small but leaves dead tuples for vacuum; archiving moves each one into {@code queue_archive} in the
 * same statement (a delete and an insert per message, for a history); flagging stamps {@code acked_at} and keeps the
 * row, so the table grows and a claim must skip acknowledged rows (a partial index of the unacknowledged ones).
 *
 * <p>Each statement takes the claimed ids as one {@code bigint[]} parameter and touches exactly the claimed rows,
 * which the reader holds locked: a count that differs means the queue was changed under it.
 */
public enum AckMode {

    DELETE("DELETE FROM queue_messages WHERE id = ANY(?)", ""),
    ARCHIVE("WITH d AS (DELETE FROM queue_messages WHERE id = ANY(?) RETURNING id, produced_at, payload) "
            + "INSERT INTO queue_archive (id, produced_at, payload) SELECT * FROM d", ""),
    FLAG("UPDATE queue_messages SET acked_at = now() WHERE id = ANY(?) AND acked_at IS NULL", " WHERE acked_at IS NULL");

    private final String ackSql;
    private final String claimFilter;

    AckMode(String ackSql, String claimFilter) {
        this.ackSql = ackSql;
        this.claimFilter = claimFilter;
    }

    /** {@code delete}, {@code archive} or {@code flag}, in any case. */
    public static AckMode parse(String text) {
        for (AckMode m : values()) {
            if (m.label().equalsIgnoreCase(text == null ? "" : text.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown ack mode '" + text + "': choose one of " + choices());
    }

    /** {@code delete, archive, flag}: for messages and help text. */
    public static String choices() {
        return Arrays.stream(values()).map(AckMode::label).collect(Collectors.joining(", "));
    }

    /** How command lines and results call it: {@code delete}, {@code archive}, {@code flag}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The statement that acknowledges the claimed ids (one {@code bigint[]} parameter); its update count is the rows touched. */
    public String ackSql() {
        return ackSql;
    }

    /** What a claim adds after {@code FROM queue_messages}: nothing, or {@code WHERE acked_at IS NULL} when rows stay. */
    public String claimFilter() {
        return claimFilter;
    }

    /** Whether acknowledged messages stay in {@code queue_messages} (flagged), rather than leaving it. */
    public boolean keepsRows() {
        return this == FLAG;
    }
}
