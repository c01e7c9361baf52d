package dev.gauntlet.script.schema;

import java.sql.SQLException;
import org.postgresql.copy.CopyIn;

/**
 * Rows of COPY's text format written as ASCII bytes straight into a buffer and shipped through pgjdbc's
 * {@link CopyIn} a MiB at a time: no strings or encoders per row, so a scale-1000 load is bound by the server.
 */
final class CopyBuffer {

    private static final int CHUNK = 1 << 20;
    /** Room kept for one more row: the longest a generated row gets is well under it. */
    private static final int ROW_ROOM = 128;

    private final CopyIn copy;
    private final byte[] bytes = new byte[CHUNK + ROW_ROOM];
    private int length;

    CopyBuffer(CopyIn copy) {
        this.copy = copy;
    }

    /** A non-negative number's decimal digits. */
    CopyBuffer number(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("generated values are not negative: " + value);
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        for (int i = length + digits - 1; i >= length; i--) {
            bytes[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        length += digits;
        return this;
    }

    /** The field separator. */
    CopyBuffer tab() {
        bytes[length++] = '\t';
        return this;
    }

    /** COPY's NULL, {@code \N}. */
    CopyBuffer nul() {
        bytes[length++] = '\\';
        bytes[length++] = 'N';
        return this;
    }

    /** Ends the row; ships the buffer once it holds a chunk. */
    void endRow() throws SQLException {
        bytes[length++] = '\n';
        if (length >= CHUNK) {
            ship();
        }
    }

    /** Ships what is left and ends the COPY. */
    long finish() throws SQLException {
        if (length > 0) {
            ship();
        }
        return copy.endCopy();
    }

    /** Cancels a COPY that failed half-way, so the connection can roll the transaction back. */
    void abort(Exception failure) {
        try {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }

    private void ship() throws SQLException {
        copy.writeToCopy(bytes, 0, length);
        length = 0;
    }
}
