package dev.gauntlet.script.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The statements are pgbench 15's, word for word: tables, partitions and their bounds, keys. */
class PgbenchDdlTest {

    private static PgbenchSchema.Loaded tables(int scale, int partitions, PartitionMethod method, boolean unlogged) {
        return new PgbenchSchema.Loaded(scale, 90, partitions, method, false, unlogged);
    }

    @Test
    void theFourTablesInPgbenchsOrderWithTheFillfactorWhereItGoes() {
        assertEquals(List.of(
                "create table pgbench_history(tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22))",
                "create table pgbench_tellers(tid int not null,bid int,tbalance int,filler char(84)) with (fillfactor=90)",
                "create table pgbench_accounts(aid    int not null,bid int,abalance int,filler char(84)) "
                        + "with (fillfactor=90)",
                "create table pgbench_branches(bid int not null,bbalance int,filler char(88)) with (fillfactor=90)"),
                PgbenchDdl.createTables(tables(19_999, 0, PartitionMethod.NONE, false), true));
    }

    @Test
    void fromScale20000AccountIdsAreBigint() {
        List<String> ddl = PgbenchDdl.createTables(tables(20_000, 0, PartitionMethod.NONE, true), true);
        assertEquals("create unlogged table pgbench_history(tid int,bid int,aid bigint,delta int,mtime timestamp,"
                + "filler char(22))", ddl.get(0));
        assertEquals("create unlogged table pgbench_accounts(aid bigint not null,bid int,abalance int,filler char(84)) "
                + "with (fillfactor=90)", ddl.get(2));
    }

    @Test
    void rangePartitionsSplitTheAccountsIntoOpenEndedParts() {
        // scale 2, 3 parts: ceil(200000 / 3) = 66667 aids a part, as pgbench 15 bounds them
        assertEquals(List.of(
                "create unlogged table pgbench_history(tid int,bid int,aid    int,delta int,mtime timestamp,"
                        + "filler char(22))",
                "create unlogged table pgbench_tellers(tid int not null,bid int,tbalance int,filler char(84)) "
                        + "with (fillfactor=90)",
                "create unlogged table pgbench_accounts(aid    int not null,bid int,abalance int,filler char(84)) "
                        + "partition by range (aid)",
                "create unlogged table pgbench_branches(bid int not null,bbalance int,filler char(88)) "
                        + "with (fillfactor=90)",
                "create unlogged table pgbench_accounts_1\n  partition of pgbench_accounts\n"
                        + "  for values from (minvalue) to (66668) with (fillfactor=90)",
                "create unlogged table pgbench_accounts_2\n  partition of pgbench_accounts\n"
                        + "  for values from (66668) to (133335) with (fillfactor=90)",
                "create unlogged table pgbench_accounts_3\n  partition of pgbench_accounts\n"
                        + "  for values from (133335) to (maxvalue) with (fillfactor=90)"),
                PgbenchDdl.createTables(tables(2, 3, PartitionMethod.RANGE, true), true));
    }

    @Test
    void oneRangePartitionTakesEverything() {
        assertEquals(List.of("create table pgbench_accounts_1\n  partition of pgbench_accounts\n"
                        + "  for values from (minvalue) to (maxvalue) with (fillfactor=90)"),
                PgbenchDdl.createPartitions(tables(1, 1, PartitionMethod.RANGE, false)));
    }

    @Test
    void hashPartitionsTakeOneRemainderEach() {
        assertEquals(List.of(
                "create table pgbench_accounts_1\n  partition of pgbench_accounts\n"
                        + "  for values with (modulus 2, remainder 0) with (fillfactor=90)",
                "create table pgbench_accounts_2\n  partition of pgbench_accounts\n"
                        + "  for values with (modulus 2, remainder 1) with (fillfactor=90)"),
                PgbenchDdl.createPartitions(tables(5, 2, PartitionMethod.HASH, false)));
    }

    @Test
    void whereTheServerRefusesAnUnloggedPartitionedTableOnlyItsPartitionsAreUnlogged() {
        List<String> ddl = PgbenchDdl.createTables(tables(1, 2, PartitionMethod.HASH, true), false);
        assertEquals("create table pgbench_accounts(aid    int not null,bid int,abalance int,filler char(84)) "
                + "partition by hash (aid)", ddl.get(2));
        assertEquals("create unlogged table pgbench_branches(bid int not null,bbalance int,filler char(88)) "
                + "with (fillfactor=90)", ddl.get(3));
        assertEquals("create unlogged table pgbench_accounts_1\n  partition of pgbench_accounts\n"
                + "  for values with (modulus 2, remainder 0) with (fillfactor=90)", ddl.get(4));
    }

    @Test
    void partitionMethodsAreReadAsPgbenchReadsThem() {
        assertEquals(PartitionMethod.HASH, PartitionMethod.parse("Hash"));
        assertEquals("invalid partition method, expecting \"range\" or \"hash\", got: \"list\"",
                assertThrows(IllegalArgumentException.class, () -> PartitionMethod.parse("list")).getMessage());
        assertEquals(PartitionMethod.NONE, PartitionMethod.ofStrategy(null));
        assertEquals(PartitionMethod.RANGE, PartitionMethod.ofStrategy("r"));
        assertEquals("unexpected partition method: \"l\"",
                assertThrows(IllegalStateException.class, () -> PartitionMethod.ofStrategy("l")).getMessage());
    }
}
