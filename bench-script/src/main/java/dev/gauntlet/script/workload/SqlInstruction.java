package dev.gauntlet.script.workload;

import dev.gauntlet.script.lang.Command;
import dev.gauntlet.script.lang.QueryMode;
import dev.gauntlet.script.lang.ResultVariables;
import dev.gauntlet.script.lang.ScriptException;
import dev.gauntlet.script.lang.SqlText;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A script's SQL command, sent in the run's query mode; with {@code \gset} or {@code \aset} its last result's columns
 * become variables (prefixed), as pgbench does: {@code \gset} wants exactly one row, {@code \aset} takes every row's
 * (the last row's values win) and none is no error.
 */
final class SqlInstruction implements Instruction {

    private final int command;
    private final SqlText sql;
    /** The {@code \gset} or {@code \aset} after the command, or null. */
    private final ResultVariables into;
    /** The variables each parameter takes, in order (extended and prepared modes). */
    private final List<String> parameters;

    /** A {@code \;} compound: several queries in one message, which only the simple protocol takes. */
    private final boolean compound;

    /**
     * A bare {@code BEGIN} right before another SQL command, or a bare {@code END} or {@code COMMIT}: the block's ends
     * as the driver's auto-commit switch and commit (see {@link #run}).
     */
    enum Boundary {
        NONE, BEGIN, END;

        private static final Pattern BEGIN_TEXT = Pattern.compile(
                "(?i)\\s*(BEGIN(\\s+(WORK|TRANSACTION))?|START\\s+TRANSACTION)[\\s;]*");
        private static final Pattern END_TEXT = Pattern.compile(
                "(?i)\\s*(END|COMMIT)(\\s+(WORK|TRANSACTION))?[\\s;]*");

        /** What {@code sql} is, {@code sqlNext} saying whether an SQL command follows it in the script. */
        static Boundary of(Command.Sql sql, boolean sqlNext) {
            if (sql.compound() || sql.results() != null || sql.text().hasReferences()) {
                return NONE;
            }
            String t = sql.text().text();
            return sqlNext && BEGIN_TEXT.matcher(t).matches() ? BEGIN : END_TEXT.matcher(t).matches() ? END : NONE;
        }
    }

    private final Boundary boundary;

    SqlInstruction(int command, SqlText sql, boolean compound, ResultVariables into, Boundary boundary) {
        this.command = command;
        this.boundary = boundary;
        this.compound = compound;
        this.sql = sql;
        this.into = into;
        this.parameters = List.copyOf(sql.parameterNames());
    }

    Boundary boundary() {
        return boundary;
    }

    @Override
    public int command() {
        return command;
    }

    /** The text with pgjdbc's placeholders, made once. */
    private String jdbc;

    String jdbcText() {
        String t = jdbc;
        if (t == null) {
            jdbc = t = JdbcPlaceholders.of(sql);
        }
        return t;
    }

    @Override
    public int run(Execution x) throws Exception {
        if (x.pipeline != null) {
            if (into != null) {
                throw new ScriptException("\\gset is not allowed in pipeline mode");
            }
            x.pipeline.addBatch(sql.render(x.client.variables::text));
            return NEXT;
        }
        Connection c = x.connection;
        // A bare BEGIN goes with the next statement, as pgjdbc sends it with auto-commit off (one round trip less
        // than pgbench, the same statements on the server); its END is then the driver's commit.
        if (boundary == Boundary.BEGIN && c.getAutoCommit()) {
            c.setAutoCommit(false);
            return NEXT;
        }
        if (boundary == Boundary.END && !c.getAutoCommit()) {
            c.commit();
            c.setAutoCommit(true);
            return NEXT;
        }
        if (x.mode == QueryMode.SIMPLE) {
            try (Statement s = c.createStatement()) {
                String text = sql.render(x.client.variables::text);
                if (x.run.debugging()) {
                    x.run.debugLine("client " + x.client.clientId + " sending " + text);
                }
                boolean rows = s.execute(text);
                if (x.run.debugging()) {
                    x.run.debugLine("client " + x.client.clientId + " receiving");
                }
                results(s, rows, x);
            }
            return NEXT;
        }
        if (compound) {
            // pgbench sends the compound as one statement to parse, which the server refuses; pgjdbc would split it.
            throw new ScriptException("ERROR:  cannot insert multiple commands into a prepared statement");
        }
        PreparedStatement p = x.mode == QueryMode.PREPARED ? x.client.prepared(c, this)
                : c.prepareStatement(jdbcText());
        try {
            List<String> names = parameters;
            for (int i = 0; i < names.size(); i++) {
                // An undefined variable is a NULL parameter, as pgbench sends it.
                p.setObject(i + 1, x.client.variables.text(names.get(i)), Types.OTHER);
            }
            if (x.run.debugging()) {
                x.run.debugLine("client " + x.client.clientId + " sending " + jdbcText());
            }
            boolean rows = p.execute();
            if (x.run.debugging()) {
                x.run.debugLine("client " + x.client.clientId + " receiving");
            }
            results(p, rows, x);
        } finally {
            if (x.mode == QueryMode.EXTENDED) {
                p.close();
            }
        }
        return NEXT;
    }

    /**
     * Reads every result (a compound has several): with {@code \gset}, the last query's must be one row, stored; with
     * {@code \aset}, every query's rows are stored as they come (a later row's values replace an earlier's).
     */
    private void results(Statement s, boolean rows, Execution x) throws SQLException, ScriptException {
        int lastRows = -1;
        String[] lastColumns = null;
        java.util.List<String[]> lastValues = null;
        for (boolean isRows = rows; ; isRows = s.getMoreResults()) {
            if (isRows) {
                try (ResultSet rs = s.getResultSet()) {
                    if (into == null) {
                        continue;
                    }
                    ResultSetMetaData meta = rs.getMetaData();
                    String[] columns = new String[meta.getColumnCount()];
                    for (int i = 0; i < columns.length; i++) {
                        columns[i] = into.prefix() + meta.getColumnLabel(i + 1);
                    }
                    java.util.List<String[]> values = new java.util.ArrayList<>();
                    while (rs.next()) {
                        String[] row = new String[columns.length];
                        for (int i = 0; i < row.length; i++) {
                            row[i] = rs.getString(i + 1);
                        }
                        values.add(row);
                    }
                    if (into.mode() == ResultVariables.Mode.ASET) {
                        store(columns, values, x);
                    }
                    lastRows = values.size();
                    lastColumns = columns;
                    lastValues = values;
                }
            } else if (s.getUpdateCount() == -1) {
                break;
            } else {
                lastRows = 0;
                lastColumns = null;
            }
        }
        if (into != null && into.mode() == ResultVariables.Mode.GSET) {
            if (lastRows != 1) {
                throw new ScriptException("client " + x.client.clientId + " script " + x.scriptIndex + " command "
                        + command + " query 0: expected one row, got " + Math.max(0, lastRows));
            }
            store(lastColumns, lastValues, x);
        }
    }

    private void store(String[] columns, java.util.List<String[]> rows, Execution x) throws ScriptException {
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                try {
                    // pgbench stores a NULL column as an empty string.
                    x.client.variables.assign(into.mode() == ResultVariables.Mode.ASET ? "aset" : "gset", columns[i],
                            row[i] == null ? "" : row[i]);
                } catch (ScriptException e) {
                    throw new ScriptException(e.getMessage() + "\nclient " + x.client.clientId + " script "
                            + x.scriptIndex + " command " + command + " query 0: error storing into variable "
                            + columns[i]);
                }
            }
        }
    }
}
