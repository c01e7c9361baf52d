package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MixAuditTest {

    private static OperationResult op(String name, long count, Map<String, Long> counters) {
        return OperationResult.of(name, count, 0, 0, 0, null, null, null, null, counters);
    }

    /** A run with the given New-Order count (scaled mix for the others) and counters. */
    private static RunResult run(int warehouses, long newOrders, long rolledBack, long lines, long remoteLines,
                                 long payments, long remotePayments, long byName) {
        List<OperationResult> ops = List.of(
                op("newOrder", newOrders, Map.of("rolledBack", rolledBack, "orderLines", lines, "remoteOrderLines", remoteLines)),
                op("payment", payments, Map.of("remote", remotePayments, "byLastName", byName)),
                op("orderStatus", newOrders / 10, Map.of("byLastName", newOrders / 10 * 6 / 10)),
                op("delivery", newOrders / 10, Map.of("districts", newOrders, "skippedDistricts", 0L)),
                op("stockLevel", newOrders / 10, Map.of()));
        return new RunResult(RunResult.SCHEMA_VERSION, null, null, "tpcc", null, null, null, null, 60, 8, null,
                Map.of("warehouses", warehouses), ops, Map.of(), Map.of(), List.of(), List.of(), List.of(), List.of(),
                List.of());
    }

    private static Check.Status status(List<Check> checks, String name) {
        return checks.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow().status();
    }

    @Test
    void aRunWithTheSpecifiedMixPasses() {
        List<Check> checks = MixAudit.checks(run(4, 100_000, 1_000, 990_000 - 9_900, 9_801, 100_000, 15_000, 60_000));
        assertEquals(Check.Status.PASS, status(checks, "9.2.2 New-Order rollbacks"));
        assertEquals(Check.Status.PASS, status(checks, "9.2.2 order lines per New-Order"));
        assertEquals(Check.Status.PASS, status(checks, "9.2.2 remote order lines"));
        assertEquals(Check.Status.PASS, status(checks, "9.2.2 remote Payments"));
        assertEquals(Check.Status.PASS, status(checks, "9.2.2 Payments by last name"));
        assertEquals(Check.Status.PASS, status(checks, "9.2.2 Order-Status by last name"));
        assertEquals(Check.Status.PASS, status(checks, "9.2.2 skipped deliveries"));
        assertEquals(Check.Status.PASS, status(checks, "5.2.3 Payment share of the mix"));
        assertEquals(Check.Status.PASS, status(checks, "5.2.3 Delivery share of the mix"));
    }

    @Test
    void figuresOutsideTheirBandsFail() {
        // 2% rollbacks, 12 lines per order, 3% remote lines, 20% remote payments, 50% by name.
        List<Check> checks = MixAudit.checks(run(4, 100_000, 2_000, 98_000 * 12, 98_000 * 12 * 3 / 100, 100_000,
                20_000, 50_000));
        assertEquals(Check.Status.FAIL, status(checks, "9.2.2 New-Order rollbacks"));
        assertEquals(Check.Status.FAIL, status(checks, "9.2.2 order lines per New-Order"));
        assertEquals(Check.Status.FAIL, status(checks, "9.2.2 remote order lines"));
        assertEquals(Check.Status.FAIL, status(checks, "9.2.2 remote Payments"));
        assertEquals(Check.Status.FAIL, status(checks, "9.2.2 Payments by last name"));
    }

    @Test
    void boundsAreInclusive() {
        // Exactly 0.9% rollbacks and exactly 57% by name are still within the spec's bands.
        List<Check> checks = MixAudit.checks(run(4, 100_000, 900, 991_000, 9_910, 100_000, 14_000, 57_000));
        assertEquals(Check.Status.PASS, status(checks, "9.2.2 New-Order rollbacks"));
        assertEquals(Check.Status.PASS, status(checks, "9.2.2 Payments by last name"));
        assertEquals(Check.Status.PASS, status(checks, "9.2.2 remote Payments"));
    }

    @Test
    void smallSamplesAndSingleWarehousesSkip() {
        List<Check> small = MixAudit.checks(run(4, 5_000, 50, 49_500, 495, 5_000, 750, 3_000));
        assertEquals(Check.Status.SKIP, status(small, "9.2.2 New-Order rollbacks"));
        assertEquals(Check.Status.SKIP, status(small, "9.2.2 Payments by last name"));
        List<Check> one = MixAudit.checks(run(1, 100_000, 1_000, 990_000, 0, 100_000, 0, 60_000));
        assertEquals(Check.Status.SKIP, status(one, "9.2.2 remote order lines"));
        assertEquals(Check.Status.SKIP, status(one, "9.2.2 remote Payments"));
    }
}
