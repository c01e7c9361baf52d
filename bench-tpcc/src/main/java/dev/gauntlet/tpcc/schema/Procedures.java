package dev.gauntlet.tpcc.schema;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The five transactions as PL/pgSQL functions ({@code procedures.sql}), for the procedures mode: installed by
 * {@code init --mode procedures}, and by {@code run --mode procedures} when missing or older than {@link #VERSION}.
 */
public final class Procedures {

    /** The version {@code procedures.sql} installs ({@code tpcc_procedures_version()}). */
    public static final int VERSION = 3;

    private Procedures() {
    }

    /** The version installed in the database, 0 when none is (on an auto-commit connection). */
    public static int installedVersion(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT CASE WHEN to_regproc('tpcc_procedures_version') IS NULL THEN 0 ELSE 1 END")) {
            rs.next();
            if (rs.getInt(1) == 0) {
                return 0;
            }
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT tpcc_procedures_version()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Installs (or replaces) the functions. */
    public static void install(Connection c) throws SQLException {
        String script;
        try (InputStream in = Procedures.class.getResourceAsStream("procedures.sql")) {
            if (in == null) {
                throw new IllegalStateException("procedures.sql is missing from the jar");
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read procedures.sql: " + e.getMessage(), e);
        }
        try (Statement s = c.createStatement()) {
            s.execute(script);
        }
    }

    /**
     * Installs the functions unless this version is there already.
     *
     * @return true when it installed them
     */
    public static boolean ensure(Connection c) throws SQLException {
        if (installedVersion(c) == VERSION) {
            return false;
        }
        install(c);
        return true;
    }
}
