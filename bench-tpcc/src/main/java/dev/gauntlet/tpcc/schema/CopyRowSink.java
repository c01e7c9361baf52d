package dev.gauntlet.tpcc.schema;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * PostgreSQL's COPY protocol in text format: rows are appended to a buffer and shipped in ~1 MB chunks
 * through pgjdbc's {@code CopyManager}, the fastest way in without leaving JDBC.
 */
final class CopyRowSink extends BufferedRowSink {

    private static final int CHUNK = 1 << 20;

    private final CopyIn copy;
    private boolean firstField = true;

    CopyRowSink(Connection connection, String table, String columns) throws SQLException {
        super(CHUNK + 4096);
        this.copy = connection.unwrap(PGConnection.class).getCopyAPI()
                .copyIn("COPY " + table + " (" + columns + ") FROM STDIN");
    }

    @Override
    protected StringBuilder field() {
        if (!firstField) {
            buffer.append('\t');
        }
        firstField = false;
        return buffer;
    }

    @Override
    public RowSink text(String value) {
        StringBuilder b = field();
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            switch (ch) {
                case '\\' -> b.append("\\\\");
                case '\t' -> b.append("\\t");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                default -> b.append(ch);
            }
        }
        return this;
    }

    @Override
    public RowSink timestamp(String isoText) {
        field().append(isoText);
        return this;
    }

    @Override
    public RowSink nul() {
        field().append("\\N");
        return this;
    }

    @Override
    public void endRow() throws SQLException {
        buffer.append('\n');
        firstField = true;
        rows++;
        if (buffer.length() >= CHUNK) {
            ship();
        }
    }

    private void ship() throws SQLException {
        byte[] bytes = buffer.toString().getBytes(StandardCharsets.UTF_8);
        copy.writeToCopy(bytes, 0, bytes.length);
        buffer.setLength(0);
    }

    @Override
    public void close() throws SQLException {
        if (!copy.isActive()) {
            return;
        }
        try {
            if (buffer.length() > 0) {
                ship();
            }
            copy.endCopy();
        } catch (SQLException e) {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
            throw e;
        }
    }
}
