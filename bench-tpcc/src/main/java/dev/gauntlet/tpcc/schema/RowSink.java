package dev.gauntlet.tpcc.schema;

import java.sql.SQLException;

/**
 * Rows streamed into one table during the load, a field at a time so no row objects are built. Fields are
 * written in the table's column order; {@link #endRow} closes a row; {@link #close} sends what is left.
 * Not thread-safe: one per loader thread and table.
 */
public interface RowSink extends AutoCloseable {

    RowSink integer(long value);

    /** A fixed-point value: {@code unscaled} / 10^{@code scale}, e.g. (1234, 2) is 12.34. */
    RowSink decimal(long unscaled, int scale);

    /** Text made of letters, digits, spaces and ordinary punctuation. */
    RowSink text(String value);

    /** A timestamp in ISO form, e.g. {@code 2026-11-22 10:00:00}. */
    RowSink timestamp(String isoText);

    RowSink nul();

    void endRow() throws SQLException;

    /** Rows written so far. */
    long rows();

    @Override
    void close() throws SQLException;

    /** Renders a fixed-point value as SQL and COPY both accept it. */
    static void appendDecimal(StringBuilder b, long unscaled, int scale) {
        if (unscaled < 0) {
            b.append('-');
            unscaled = -unscaled;
        }
        long pow = 1;
        for (int i = 0; i < scale; i++) {
            pow *= 10;
        }
        b.append(unscaled / pow);
        if (scale > 0) {
            b.append('.');
            String frac = Long.toString(unscaled % pow);
            for (int i = frac.length(); i < scale; i++) {
                b.append('0');
            }
            b.append(frac);
        }
    }
}
