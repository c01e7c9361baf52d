package dev.gauntlet.tpcc.figures;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.DriverCpu;
import dev.gauntlet.sql.observe.RoundTrips;
import dev.gauntlet.sql.observe.ServerCpu;
import dev.gauntlet.tpcc.workload.Deck;
import dev.gauntlet.tpcc.workload.NewOrder;
import dev.gauntlet.tpcc.workload.Scale;
import dev.gauntlet.tpcc.workload.TransactionType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The TPC-C figures of a run: tpmC (committed New-Orders per minute of measured time; rolled-back ones
 * count in the mix, not here), the same counted on the server (the rise of {@code sum(d_next_o_id)}, which
 * survives client crashes), efficiency against the most the active warehouses' terminals can give (keyed runs
 * only), and the 90th-percentile response-time limits.
 */
public final class TpccFigures {

    /**
     * The most tpmC one warehouse can give with keying and think times on, i.e. 100% efficiency: its 10
     * terminals each play the New-Order cards of the deck once per {@link Deck#cycleSeconds() cycle}, 10 x 60 /
     * 476 = 1.2605 per terminal-minute, so 12.605 (cockroach {@code workload}'s DeckWarehouseFactor). The
     * figure usually quoted, 12.86, is for the spec's minimum mix with 45% New-Orders; a deck of 10 in 23
     * (43.5%) can never reach it, so efficiency against it would read about 2% low and never reach 100%.
     */
    public static final double MAX_TPMC_PER_WAREHOUSE = Scale.TERMINALS_PER_WAREHOUSE
            * TransactionType.NEW_ORDER.cards() * 60.0 / Deck.cycleSeconds();

    /** What tpmC counts, stated in every TPC-C result because the tools differ on it. */
    static final String TPMC_COUNTS = "committed New-Orders only: the 1% rolled back on the unused item are not "
            + "counted (HammerDB's NOPM rule; cockroach workload counts them)";

    private TpccFigures() {
    }

    /**
     * What the figures mean, for the result's parameters (report.md shows them): what tpmC counts, and for a
     * keyed run the ceiling efficiency is measured against.
     */
    public static Map<String, Object> definitions(boolean keyed) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("tpmC counts", TPMC_COUNTS);
        if (keyed) {
            d.put("efficiency ceiling", String.format(Locale.ROOT, "%.3f tpmC per active warehouse: %d terminals, "
                            + "each at most %d New-Orders per %.0f s pass through the %d-card deck (minimum keying "
                            + "plus mean think times)", MAX_TPMC_PER_WAREHOUSE, Scale.TERMINALS_PER_WAREHOUSE,
                    TransactionType.NEW_ORDER.cards(), Deck.cycleSeconds(), Deck.size()));
        }
        return d;
    }

    /** Client-side committed New-Orders in the measured phase. */
    static long committedNewOrders(RunResult run) {
        return run.operation(NewOrder.NAME).map(o -> o.count() - o.counter("rolledBack")).orElse(0L);
    }

    /**
     * The run's metrics. Efficiency only when {@code keyed}: back to back, terminals are not bounded by keying
     * and think times, so a percentage of that bound says nothing (a no-wait run would read thousands of %).
     */
    /**
     * The run's metrics (those core gave it, e.g. driver CPU per operation) plus TPC-C's: tpmC, efficiency (keyed
     * runs only), serverTpmC from the {@link ServerNewOrders} probe, and driver CPU per transaction.
     */
    public static Metrics metrics(RunResult run, int activeWarehouses, boolean keyed) {
        Metrics m = Metrics.of(run);
        Long serverNewOrders = run.measuredProbe(ServerNewOrders.NAME).orElse(null);
        Long cpuNanos = run.measuredProbe(DriverCpu.NAME).orElse(null);
        long transactions = run.totalCount();
        if (transactions > 0) {
            // Per committed transaction: the driver's CPU, the server's (when it runs on this machine) and the
            // round trips sessions made on the wire (statements, COMMIT and retries' included).
            if (cpuNanos != null) {
                m.add("driverCpuPerTransactionMs", cpuNanos / 1e6 / transactions, MetricInfo.lower().perOperation());
            }
            run.measuredProbe(ServerCpu.NAME).ifPresent(cpu ->
                    m.add("serverCpuPerTransactionMs", cpu / 1e6 / transactions,
                            MetricInfo.lower().serverPerOperation()));
            run.measuredProbe(RoundTrips.NAME).ifPresent(trips ->
                    m.add("roundTripsPerTransaction", trips / (double) transactions,
                            MetricInfo.lower().perOperation()));
        }
        double minutes = run.measuredSeconds() / 60.0;
        if (minutes <= 0) {
            return m;
        }
        double tpmC = committedNewOrders(run) / minutes;
        m.add("tpmC", tpmC, MetricInfo.higher().addsUp());
        if (keyed) {
            // Against all active warehouses, also in a process of a split run: the processes' percentages add up.
            m.add("efficiencyPercent", 100.0 * tpmC / (MAX_TPMC_PER_WAREHOUSE * activeWarehouses),
                    MetricInfo.higher().addsUp());
        }
        if (serverNewOrders != null) {
            m.add("serverTpmC", serverNewOrders / minutes, MetricInfo.higher().serverWide());
        }
        if (run.phases().stream().filter(Phase::isMeasured).count() > 1) {
            // A run through phases (a plan of faults): each phase's tpmC as the driver and as the server saw it.
            for (Phase p : run.phases()) {
                double phaseMinutes = (p.endSeconds() - p.startSeconds()) / 60.0;
                IntervalOperation no = p.operations().get(NewOrder.NAME);
                if (phaseMinutes <= 0 || no == null) {
                    continue;
                }
                m.add("tpmC." + p.name(), (no.count() - no.counters().getOrDefault("rolledBack", 0L)) / phaseMinutes,
                        MetricInfo.higher().addsUp());
                Long server = p.probe(ServerNewOrders.NAME);
                if (server != null) {
                    m.add("serverTpmC." + p.name(), server / phaseMinutes, MetricInfo.higher().serverWide());
                }
            }
        }
        return m;
    }

    /** Clause 5.2.5.3: 90% of each type within 5 s (Stock-Level 20 s). */
    public static List<Check> responseTimeLimits(RunResult run) {
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
