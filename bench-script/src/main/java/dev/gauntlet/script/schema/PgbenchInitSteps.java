package dev.gauntlet.script.schema;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * pgbench 15's {@code runInitSteps}: each step of {@code -I} in the order given, on a connection in auto-commit as
 * pgbench runs them ({@code d} drop, {@code t} create tables (and partitions), {@code g} generate client-side with
 * COPY, {@code G} server-side with {@code generate_series}, {@code v} vacuum analyze, {@code p} primary keys,
 * {@code f} foreign keys; a space does nothing), each announced on {@code err} as pgbench announces it, then
 * {@code done in 1.23 s (drop tables 0.01 s, ...)}.
 */
public final class PgbenchInitSteps {

    /** Where the tables and their primary keys' indexes go: pgbench's --tablespace and --index-tablespace. */
    public record Tablespaces(String tables, String indexes) {
    }

    private final Connection c;
    private final PgbenchSchema.Loaded tables;
    private final Tablespaces tablespaces;
    private final boolean quiet;
    private final PrintStream err;

    /**
     * @param quiet pgbench's {@code -q}: a progress line every 5 s rather than every 100,000 rows
     */
    public PgbenchInitSteps(Connection c, PgbenchSchema.Loaded tables, Tablespaces tablespaces, boolean quiet,
                            PrintStream err) {
        this.c = c;
        this.tables = tables;
        this.tablespaces = tablespaces;
        this.quiet = quiet;
        this.err = err;
    }

    /** Runs {@code steps}; the summary line ({@link InitSteps}) is printed last. */
    public void run(String steps) throws SQLException {
        InitSteps done = new InitSteps();
        for (char step : steps.toCharArray()) {
            switch (step) {
                case 'd' -> done.run("drop tables", () -> {
                    err.println("dropping old tables...");
                    PgbenchSchema.drop(c);
                });
                case 't' -> done.run("create tables", this::createTables);
                case 'g' -> done.run("client-side generate", this::generateClientSide);
                case 'G' -> done.run("server-side generate", this::generateServerSide);
                case 'v' -> done.run("vacuum", () -> {
                    err.println("vacuuming...");
                    PgbenchSchema.execute(c, PgbenchDdl.TABLES.stream().map(t -> "vacuum analyze " + t).toList());
                });
                case 'p' -> done.run("primary keys", () -> {
                    err.println("creating primary keys...");
                    PgbenchSchema.execute(c, PgbenchDdl.PRIMARY_KEYS.stream().map(k -> tablespaces.indexes() == null
                            ? k : k + " using index tablespace " + identifier(tablespaces.indexes())).toList());
                });
                case 'f' -> done.run("foreign keys", () -> {
                    err.println("creating foreign keys...");
                    PgbenchSchema.execute(c, PgbenchDdl.FOREIGN_KEYS);
                });
                default -> {
                    // a space: nothing, as in pgbench (the steps were checked before)
                }
            }
        }
        err.println(done);
    }

    private void createTables() throws SQLException {
        err.println("creating tables...");
        int major = c.getMetaData().getDatabaseMajorVersion();
        List<String> ddl = PgbenchDdl.createTables(tables, major < PgbenchSchema.NO_UNLOGGED_PARTITIONED_FROM);
        List<String> partitions = tables.partitionMethod() == PartitionMethod.NONE ? List.of()
                : PgbenchDdl.createPartitions(tables);
        List<String> created = ddl.subList(0, ddl.size() - partitions.size()).stream()
                .map(sql -> tablespaces.tables() == null ? sql : sql + " tablespace " + identifier(tablespaces.tables()))
                .toList();
        PgbenchSchema.execute(c, created);
        if (!partitions.isEmpty()) {
            err.println("creating " + tables.partitions() + " partitions...");
            PgbenchSchema.execute(c, partitions);
        }
    }

    private void generateClientSide() throws SQLException {
        err.println("generating data (client-side)...");
        inOneTransaction(() -> {
            truncate();
            GeneratedTable.BRANCHES.copy(c, tables.scale(), false);
            GeneratedTable.TELLERS.copy(c, tables.scale(), false);
            long rows = tables.accounts();
            long start = System.nanoTime();
            long[] interval = {1};
            boolean freeze = tables.partitions() == 0 && c.getMetaData().getDatabaseMajorVersion() >= 14;
            GeneratedTable.ACCOUNTS.copy(c, tables.scale(), freeze, j -> {
                double elapsed = (System.nanoTime() - start) / 1e9;
                boolean show = quiet ? j == rows || elapsed >= interval[0] * 5.0 : j % 100_000 == 0;
                if (show) {
                    err.printf(Locale.ROOT, "%d of %d tuples (%d%%) done (elapsed %.2f s, remaining %.2f s)%n", j,
                            rows, j * 100 / rows, elapsed, (rows - j) * elapsed / j);
                    if (quiet) {
                        interval[0] = (long) Math.ceil(elapsed / 5.0);
                    }
                }
            });
        });
    }

    private void generateServerSide() throws SQLException {
        err.println("generating data (server-side)...");
        inOneTransaction(() -> {
            truncate();
            PgbenchSchema.execute(c, List.of(
                    "insert into pgbench_branches(bid,bbalance) select bid, 0 from generate_series(1, "
                            + tables.branches() + ") as bid",
                    "insert into pgbench_tellers(tid,bid,tbalance) select tid, (tid - 1) / " + PgbenchSchema.NTELLERS
                            + " + 1, 0 from generate_series(1, " + tables.tellers() + ") as tid",
                    "insert into pgbench_accounts(aid,bid,abalance,filler) select aid, (aid - 1) / "
                            + PgbenchSchema.NACCOUNTS + " + 1, 0, '' from generate_series(1, " + tables.accounts()
                            + ") as aid"));
        });
    }

    /** pgbench's generate steps: the truncate and the rows in one transaction, so a failure leaves no half. */
    private void inOneTransaction(InitSteps.Work work) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            work.run();
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private void truncate() throws SQLException {
        PgbenchSchema.execute(c, List.of(
                "truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers"));
    }

    /** libpq's {@code PQescapeIdentifier}: double-quoted, inner quotes doubled. */
    private static String identifier(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
