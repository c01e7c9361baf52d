package dev.gauntlet.tpcc.schema;

/**
 * What the two ways of loading rows share: rows are rendered as text into a buffer, numbers the same way
 * for both; how fields are separated and text is quoted is the subclass's.
 */
abstract class BufferedRowSink implements RowSink {

    protected final StringBuilder buffer;
    protected long rows;

    BufferedRowSink(int capacity) {
        this.buffer = new StringBuilder(capacity);
    }

    /** Appends the separator a new field needs and returns the buffer to write it into. */
    protected abstract StringBuilder field();

    @Override
    public final RowSink integer(long value) {
        field().append(value);
        return this;
    }

    @Override
    public final RowSink decimal(long unscaled, int scale) {
        RowSink.appendDecimal(field(), unscaled, scale);
        return this;
    }

    @Override
    public final long rows() {
        return rows;
    }
}
