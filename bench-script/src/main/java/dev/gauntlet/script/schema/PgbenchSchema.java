package dev.gauntlet.script.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The four pgbench tables as PostgreSQL 15's {@code pgbench -i} makes them, in one transaction: its default steps
 * {@code dtgvp} ({@code dtgvpf} with {@code --foreign-keys}) with their statements word for word ({@link PgbenchDdl})
 * and its client-side data ({@link GeneratedTable}), sent through COPY.
 *
 * <p>Where one transaction forces a difference it is this. {@code v}, pgbench's {@code vacuum analyze} of each table,
 * cannot run in a transaction block: the load runs {@code analyze} of each table in its place (the same statistics),
 * and COPYs every table that is not partitioned with {@code FREEZE} (pgbench 15 freezes only an unpartitioned
 * accounts and INSERTs branches and tellers row by row; later pgbench versions COPY all three and freeze every plain
 * table), which leaves its pages frozen and all-visible as the vacuum would. Partitioned accounts cannot be frozen by
 * COPY, so its partitions' visibility maps stay unset until the first (auto)vacuum. The {@code d} step is the
 * caller's ({@code init --drop}). On PostgreSQL 18, which refuses unlogged partitioned tables, a partitioned
 * {@code pgbench_accounts} is created logged and its partitions unlogged (pgbench 15's statement fails there).
 */
public final class PgbenchSchema {

    /** pgbench's {@code nbranches}: branches per unit of scale. */
    public static final int NBRANCHES = 1;
    /** pgbench's {@code ntellers}: tellers per unit of scale. */
    public static final int NTELLERS = 10;
    /** pgbench's {@code naccounts}: accounts per unit of scale. */
    public static final int NACCOUNTS = 100_000;
    /** pgbench's {@code SCALE_32BIT_THRESHOLD}: from this scale on, account ids are {@code bigint}. */
    public static final int SCALE_32BIT_THRESHOLD = 20_000;

    /** The first server that refuses an unlogged partitioned table. */
    static final int NO_UNLOGGED_PARTITIONED_FROM = 18;
    /** The first server whose COPY takes FREEZE from pgbench (pgbench asks for it from 14 on). */
    private static final int COPY_FREEZE_FROM = 14;

    private PgbenchSchema() {
    }

    /**
     * The pgbench tables: what {@code init} makes, and what is read back from tables already there (made by
     * Gauntlet or by {@code pgbench -i}).
     *
     * @param scale           branches ({@code count(*)} of pgbench_branches when read back)
     * @param fillfactor      of branches, tellers and accounts (or its partitions): 10..100
     * @param partitions      of pgbench_accounts, 0 when it is not partitioned
     * @param partitionMethod how pgbench_accounts is partitioned
     * @param foreignKeys     whether the tables have foreign keys ({@code --foreign-keys})
     * @param unlogged        whether every table holding rows is unlogged ({@code --unlogged-tables})
     */
    public record Loaded(int scale, int fillfactor, int partitions, PartitionMethod partitionMethod,
            boolean foreignKeys, boolean unlogged) {

        /** Branches, one per unit of scale. */
        public long branches() {
            return (long) NBRANCHES * scale;
        }

        /** Tellers, ten per branch. */
        public long tellers() {
            return (long) NTELLERS * scale;
        }

        /** Accounts, 100,000 per branch. */
        public long accounts() {
            return (long) NACCOUNTS * scale;
        }

        /** Whether account ids are {@code bigint}, as pgbench makes them from scale 20,000 on. */
        public boolean bigintAids() {
            return scale >= SCALE_32BIT_THRESHOLD;
        }
    }

    /**
     * Creates and fills the tables as {@code tables} says, on {@code c} in the caller's transaction (auto-commit
     * off): nothing is committed, so a failure leaves nothing.
     *
     * @param analyze run the {@code analyze} that stands for pgbench's vacuum (false: pgbench's {@code -n})
     * @return how long each step took
     */
    public static InitSteps load(Connection c, Loaded tables, boolean analyze) throws SQLException {
        int major = c.getMetaData().getDatabaseMajorVersion();
        InitSteps steps = new InitSteps();
        steps.run("create tables", () -> execute(c, PgbenchDdl.createTables(tables,
                major < NO_UNLOGGED_PARTITIONED_FROM)));
        steps.run("client-side generate", () -> {
            boolean freeze = major >= COPY_FREEZE_FROM;
            GeneratedTable.BRANCHES.copy(c, tables.scale(), freeze);
            GeneratedTable.TELLERS.copy(c, tables.scale(), freeze);
            GeneratedTable.ACCOUNTS.copy(c, tables.scale(), freeze
                    && tables.partitionMethod() == PartitionMethod.NONE);
        });
        if (analyze) {
            steps.run("analyze", () -> execute(c, PgbenchDdl.analyze()));
        }
        steps.run("primary keys", () -> execute(c, PgbenchDdl.PRIMARY_KEYS));
        if (tables.foreignKeys()) {
            steps.run("foreign keys", () -> execute(c, PgbenchDdl.FOREIGN_KEYS));
        }
        return steps;
    }

    /**
     * The pgbench tables on {@code c}'s search path, or null when none of the four is there.
     *
     * @throws dev.gauntlet.core.cli.BadInputException when pgbench_accounts is partitioned by list
     */
    public static Loaded loaded(Connection c) throws SQLException {
        return PgbenchCatalog.read(c);
    }

    /** Drops the four tables (and so the partitions of pgbench_accounts), as pgbench's {@code d} step. */
    public static void drop(Connection c) throws SQLException {
        execute(c, List.of(PgbenchDdl.DROP));
    }

    static void execute(Connection c, List<String> statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }
}
