package dev.gauntlet.tpcc;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The TPC-C figures of a run: tpmC (committed New-Orders per minute of measured time; rolled-back ones
 * count in the mix, not here), the same counted on the server (the rise of {@code sum(d_next_o_id)}, which
 * survives client crashes), efficiency against 12.86 tpmC per active warehouse, and the 90th-percentile
 * response-time limits.
 */
final class TpccFigures {

    private TpccFigures() {
    }

    /** Client-side committed New-Orders in the measured phase. */
    static long committedNewOrders(RunResult run) {
        return run.operation(NewOrder.NAME).map(o -> o.count() - o.counter("rolledBack")).orElse(0L);
    }

    static Metrics metrics(RunResult run, int activeWarehouses, Long serverNewOrders) {
        Metrics m = new Metrics();
        double minutes = run.measuredSeconds() / 60.0;
        if (minutes <= 0) {
            return m;
        }
        double tpmC = committedNewOrders(run) / minutes;
        m.add("tpmC", tpmC, MetricInfo.higher().addsUp());
        m.add("efficiencyPercent", 100.0 * tpmC / (Scale.MAX_TPMC_PER_WAREHOUSE * activeWarehouses),
                MetricInfo.higher());
        if (serverNewOrders != null) {
            m.add("serverTpmC", serverNewOrders / minutes, MetricInfo.higher().addsUp());
        }
        return m;
    }

    /** Clause 5.2.5.3: 90% of each type within 5 s (Stock-Level 20 s). */
    static List<Check> responseTimeLimits(RunResult run) {
        List<Check> checks = new ArrayList<>();
        for (TransactionType t : TransactionType.values()) {
            String name = "5.2.5.3 " + t.operationName() + " p90 <= " + t.p90Limit().toSeconds() + " s";
            OperationResult op = run.operation(t.operationName()).orElse(null);
            if (op == null || op.count() == 0 || op.latencyMs() == null) {
                checks.add(Check.skip(name, "no " + t.operationName() + " completed"));
                continue;
            }
            double p90 = op.latencyMs().p90();
            String detail = String.format(Locale.ROOT, "p90 %.1f ms", p90);
            checks.add(p90 <= t.p90Limit().toMillis() ? Check.pass(name, detail) : Check.fail(name, detail));
        }
        return checks;
    }
}
