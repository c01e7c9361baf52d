package dev.gauntlet.tpcc.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Multi-row INSERT statements of up to 500 rows, for databases without PostgreSQL's COPY (CockroachDB).
 * Values are rendered as literals: the generator only produces letters, digits and spaces, and quotes are
 * doubled regardless.
 */
final class InsertRowSink extends BufferedRowSink {

    private static final int ROWS_PER_STATEMENT = 500;

    private final Statement statement;
    private final String prefix;
    private boolean firstField = true;
    private int pending;

    InsertRowSink(Connection connection, String table, String columns) throws SQLException {
        super(1 << 16);
        this.statement = connection.createStatement();
        this.prefix = "INSERT INTO " + table + " (" + columns + ") VALUES ";
    }

    @Override
    protected StringBuilder field() {
        if (firstField) {
            buffer.append(pending == 0 ? prefix : ",").append('(');
        } else {
            buffer.append(',');
        }
        firstField = false;
        return buffer;
    }

    @Override
    public RowSink text(String value) {
        field().append('\'').append(value.replace("'", "''")).append('\'');
        return this;
    }

    @Override
    public RowSink timestamp(String isoText) {
        field().append('\'').append(isoText).append("'::timestamp");
        return this;
    }

    @Override
    public RowSink nul() {
        field().append("NULL");
        return this;
    }

    @Override
    public void endRow() throws SQLException {
        buffer.append(')');
        firstField = true;
        pending++;
        rows++;
        if (pending >= ROWS_PER_STATEMENT) {
            flush();
        }
    }

    private void flush() throws SQLException {
        if (pending > 0) {
            statement.executeUpdate(buffer.toString());
            buffer.setLength(0);
            pending = 0;
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            flush();
        } finally {
            statement.close();
        }
    }
}
