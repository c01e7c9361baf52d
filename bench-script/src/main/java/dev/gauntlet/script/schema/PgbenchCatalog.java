package dev.gauntlet.script.schema;

import dev.gauntlet.core.cli.BadInputException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What the pgbench tables on the search path are, read from their data and the catalog as pgbench itself reads them
 * where it does: the scale is {@code count(*)} of {@code pgbench_branches} (pgbench's run trusts it and checks
 * nothing else), the partitions are its {@code GetTableInfo} query. So the tables {@code pgbench -i} made read the
 * same as Gauntlet's.
 */
final class PgbenchCatalog {

    /** The four tables by name, as the search path finds them (null where absent). */
    private static final String TABLES = "SELECT unnest(ARRAY[to_regclass('pgbench_accounts'), "
            + "to_regclass('pgbench_branches'), to_regclass('pgbench_history'), to_regclass('pgbench_tellers')]) AS rel";

    /**
     * How many of the four there are; whether any has a foreign key; whether every table holding rows (the
     * partitions in place of a partitioned accounts) is unlogged; the fillfactor of {@code pgbench_branches}.
     */
    private static final String SHAPE = "WITH t AS (" + TABLES + ") SELECT count(t.rel) AS present, "
            + "EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k WHERE k.contype = 'f' "
            + "AND k.conrelid IN (SELECT rel FROM t)) AS foreign_keys, "
            + "coalesce((SELECT bool_and(c.relpersistence = 'u') FROM pg_catalog.pg_class c WHERE c.relkind = 'r' "
            + "AND (c.oid IN (SELECT rel FROM t) OR c.oid IN (SELECT i.inhrelid FROM pg_catalog.pg_inherits i "
            + "WHERE i.inhparent = to_regclass('pgbench_accounts')))), false) AS unlogged, "
            + "(SELECT o.option_value FROM pg_catalog.pg_class c "
            + "CROSS JOIN LATERAL pg_catalog.pg_options_to_table(c.reloptions) AS o "
            + "WHERE c.oid = to_regclass('pgbench_branches') AND o.option_name = 'fillfactor') AS fillfactor "
            + "FROM t";

    /** pgbench 15's {@code GetTableInfo}: the first pgbench_accounts on the search path, its strategy and children. */
    private static final String PARTITIONS = "select o.n, p.partstrat, pg_catalog.count(i.inhparent) "
            + "from pg_catalog.pg_class as c "
            + "join pg_catalog.pg_namespace as n on (n.oid = c.relnamespace) "
            + "cross join lateral (select pg_catalog.array_position(pg_catalog.current_schemas(true), n.nspname)) "
            + "as o(n) "
            + "left join pg_catalog.pg_partitioned_table as p on (p.partrelid = c.oid) "
            + "left join pg_catalog.pg_inherits as i on (c.oid = i.inhparent) "
            + "where c.relname = 'pgbench_accounts' and o.n is not null "
            + "group by 1, 2 "
            + "order by 1 asc "
            + "limit 1";

    /** PostgreSQL's fillfactor when a table sets none. */
    private static final int DEFAULT_FILLFACTOR = 100;

    private PgbenchCatalog() {
    }

    /**
     * The pgbench tables on {@code c}'s search path, or null when none of the four is there. Tables that are there
     * only in part read as what they are: no {@code pgbench_branches} is scale 0.
     *
     * @throws BadInputException when {@code pgbench_accounts} is partitioned by a method pgbench does not make
     */
    static PgbenchSchema.Loaded read(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            boolean foreignKeys;
            boolean unlogged;
            int fillfactor;
            try (ResultSet rs = s.executeQuery(SHAPE)) {
                rs.next();
                if (rs.getInt("present") == 0) {
                    return null;
                }
                foreignKeys = rs.getBoolean("foreign_keys");
                unlogged = rs.getBoolean("unlogged");
                String set = rs.getString("fillfactor");
                fillfactor = set == null ? DEFAULT_FILLFACTOR : Integer.parseInt(set);
            }
            int scale = 0;
            if (hasBranches(s)) {
                try (ResultSet rs = s.executeQuery("select count(*) from pgbench_branches")) {
                    rs.next();
                    scale = Math.toIntExact(rs.getLong(1));
                }
            }
            PartitionMethod method = PartitionMethod.NONE;
            int partitions = 0;
            try (ResultSet rs = s.executeQuery(PARTITIONS)) {
                if (rs.next()) {
                    try {
                        method = PartitionMethod.ofStrategy(rs.getString(2));
                    } catch (IllegalStateException e) {
                        throw new BadInputException("pgbench_accounts: " + e.getMessage(), e);
                    }
                    partitions = rs.getInt(3);
                }
            }
            return new PgbenchSchema.Loaded(scale, fillfactor, partitions, method, foreignKeys, unlogged);
        }
    }

    private static boolean hasBranches(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT to_regclass('pgbench_branches') IS NOT NULL")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }
}
