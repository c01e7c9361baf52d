package dev.gauntlet.script.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * The statements of PostgreSQL 15's {@code pgbench -i}, word for word: its {@code t} step (tables and partitions,
 * {@code initCreateTables} and {@code createPartitions}), {@code v} (here ANALYZE, see {@link PgbenchSchema}),
 * {@code p} (primary keys), {@code f} (foreign keys) and {@code d} (drop).
 */
final class PgbenchDdl {

    /** {@code initDropTables}: one statement, so foreign keys between them do not matter. */
    static final String DROP = "drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, "
            + "pgbench_tellers";

    /** {@code initCreatePKeys}, in its order. */
    static final List<String> PRIMARY_KEYS = List.of(
            "alter table pgbench_branches add primary key (bid)",
            "alter table pgbench_tellers add primary key (tid)",
            "alter table pgbench_accounts add primary key (aid)");

    /** {@code initCreateFKeys}, in its order (the names are pgbench's, so the history's partition keys are too). */
    static final List<String> FOREIGN_KEYS = List.of(
            "alter table pgbench_tellers add constraint pgbench_tellers_bid_fkey foreign key (bid) references "
                    + "pgbench_branches",
            "alter table pgbench_accounts add constraint pgbench_accounts_bid_fkey foreign key (bid) references "
                    + "pgbench_branches",
            "alter table pgbench_history add constraint pgbench_history_bid_fkey foreign key (bid) references "
                    + "pgbench_branches",
            "alter table pgbench_history add constraint pgbench_history_tid_fkey foreign key (tid) references "
                    + "pgbench_tellers",
            "alter table pgbench_history add constraint pgbench_history_aid_fkey foreign key (aid) references "
                    + "pgbench_accounts");

    /** {@code initVacuum}'s tables, in its order. */
    static final List<String> TABLES = List.of("pgbench_branches", "pgbench_tellers", "pgbench_accounts",
            "pgbench_history");

    /**
     * One table of {@code initCreateTables}: its column declarations with 32-bit and with 64-bit account ids, and
     * whether it takes the fillfactor.
     */
    private record Table(String name, String smallColumns, String bigColumns, boolean fillfactor) {
    }

    /** {@code initCreateTables}' DDLs, in its order (the spacing of {@code aid    int} is pgbench's). */
    private static final List<Table> CREATED = List.of(
            new Table("pgbench_history",
                    "tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)",
                    "tid int,bid int,aid bigint,delta int,mtime timestamp,filler char(22)", false),
            new Table("pgbench_tellers",
                    "tid int not null,bid int,tbalance int,filler char(84)",
                    "tid int not null,bid int,tbalance int,filler char(84)", true),
            new Table("pgbench_accounts",
                    "aid    int not null,bid int,abalance int,filler char(84)",
                    "aid bigint not null,bid int,abalance int,filler char(84)", true),
            new Table("pgbench_branches",
                    "bid int not null,bbalance int,filler char(88)",
                    "bid int not null,bbalance int,filler char(88)", true));

    private PgbenchDdl() {
    }

    /**
     * The {@code t} step: the four tables, then the partitions of {@code pgbench_accounts}.
     *
     * @param unloggedPartitionedTables whether the server takes {@code create unlogged table ... partition by}
     *                                  (PostgreSQL 17 and before); where it does not, the partitioned
     *                                  {@code pgbench_accounts} itself is created logged, its partitions unlogged
     */
    static List<String> createTables(PgbenchSchema.Loaded t, boolean unloggedPartitionedTables) {
        List<String> statements = new ArrayList<>();
        boolean partitioned = t.partitionMethod() != PartitionMethod.NONE;
        for (Table table : CREATED) {
            boolean partitionedAccounts = partitioned && table.name().equals("pgbench_accounts");
            boolean unlogged = t.unlogged() && (unloggedPartitionedTables || !partitionedAccounts);
            StringBuilder sql = new StringBuilder("create").append(unlogged ? " unlogged" : "").append(" table ")
                    .append(table.name()).append('(')
                    .append(t.bigintAids() ? table.bigColumns() : table.smallColumns()).append(')');
            if (partitionedAccounts) {
                sql.append(" partition by ").append(t.partitionMethod().spelling()).append(" (aid)");
            } else if (table.fillfactor()) {
                sql.append(" with (fillfactor=").append(t.fillfactor()).append(')');
            }
            statements.add(sql.toString());
        }
        if (partitioned) {
            statements.addAll(createPartitions(t));
        }
        return statements;
    }

    /**
     * {@code createPartitions}: {@code pgbench_accounts_1..N}. Range partitions split {@code naccounts * scale} into
     * N parts of {@code ceil(total / N)} aids, the first from {@code minvalue}, the last to {@code maxvalue}; hash
     * partitions take remainder {@code p - 1} of modulus N.
     */
    static List<String> createPartitions(PgbenchSchema.Loaded t) {
        List<String> statements = new ArrayList<>();
        int n = t.partitions();
        long partSize = (t.accounts() + n - 1) / n;
        for (int p = 1; p <= n; p++) {
            StringBuilder sql = new StringBuilder("create").append(t.unlogged() ? " unlogged" : "")
                    .append(" table pgbench_accounts_").append(p).append("\n  partition of pgbench_accounts\n");
            if (t.partitionMethod() == PartitionMethod.RANGE) {
                sql.append("  for values from (").append(p == 1 ? "minvalue" : Long.toString((p - 1) * partSize + 1))
                        .append(") to (").append(p < n ? Long.toString(p * partSize + 1) : "maxvalue").append(')');
            } else {
                sql.append("  for values with (modulus ").append(n).append(", remainder ").append(p - 1).append(')');
            }
            sql.append(" with (fillfactor=").append(t.fillfactor()).append(')');
            statements.add(sql.toString());
        }
        return statements;
    }

    /** The {@code v} step as one transaction allows it: {@code analyze} of each table, in pgbench's order. */
    static List<String> analyze() {
        return TABLES.stream().map(table -> "analyze " + table).toList();
    }
}
