package dev.gauntlet.tpcc;

import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.search.Pacing;
import dev.gauntlet.tpcc.figures.TpccFigures;
import dev.gauntlet.tpcc.workload.TransactionType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;

/**
 * {@code --find-max-warehouses}: the capacity search over active warehouses, TPC-C's own way of stating capacity. Each
 * step runs 10 keying and thinking terminals on each of its active warehouses; it passes when its efficiency (tpmC
 * over the most the deck allows per active warehouse) is at least {@value #EFFICIENCY_PERCENT}% and every
 * transaction's 90th percentile is within clause 5.2.5.3's limit (objectives every step is judged by, besides
 * {@code --slo}). The loaded warehouses are the most it tries; the search starts at half of them.
 */
final class WarehousePacing implements Pacing<RunCommand.Setup> {

    static final double EFFICIENCY_PERCENT = 85;

    private final BiFunction<RunCommand.Setup, RunPlan, RunPlan> terminals;

    /** @param terminals the plan of the set's active warehouses' terminals */
    WarehousePacing(BiFunction<RunCommand.Setup, RunPlan, RunPlan> terminals) {
        this.terminals = terminals;
    }

    @Override
    public RunPlan at(RunCommand.Setup s, RunPlan base, double warehouses) {
        s.activeNow().set((int) warehouses);
        return terminals.apply(s, base);
    }

    @Override
    public double achieved(RunResult r) {
        return r.parameters().get("activeWarehouses") instanceof Number n ? n.doubleValue() : 0;
    }

    @Override
    public double start(RunPlan base) {
        return 0; // half the loaded warehouses
    }

    @Override
    public String unit() {
        return "warehouses";
    }

    @Override
    public double most(RunCommand.Setup s) {
        return s.warehouses();
    }

    @Override
    public boolean probesRaw() {
        return false;
    }

    @Override
    public String option() {
        return "--find-max-warehouses";
    }

    @Override
    public String stepLabel() {
        return "warehouses";
    }

    @Override
    public String answerWords() {
        return "most warehouses meeting the objectives";
    }

    @Override
    public List<String> objectives() {
        return List.of(TransactionType.responseTimeObjectives());
    }

    @Override
    public String criterion() {
        return String.format(Locale.ROOT, "the efficiency (tpmC over %.3f per active warehouse) is at least %.0f%%",
                TpccFigures.MAX_TPMC_PER_WAREHOUSE, EFFICIENCY_PERCENT);
    }

    @Override
    public List<String> failures(RunResult step) {
        Double efficiency = step.metrics().get("efficiencyPercent");
        List<String> why = new ArrayList<>();
        if (efficiency == null) {
            why.add("no efficiency measured");
        } else if (efficiency < EFFICIENCY_PERCENT) {
            why.add(String.format(Locale.ROOT, "efficiency %.1f%% < %.0f%%", efficiency, EFFICIENCY_PERCENT));
        }
        return why;
    }

    @Override
    public List<String> figures(RunResult step) {
        List<String> f = new ArrayList<>();
        Double tpmC = step.metrics().get("tpmC");
        Double efficiency = step.metrics().get("efficiencyPercent");
        if (tpmC != null) {
            f.add(String.format(Locale.ROOT, "tpmC %,.1f", tpmC));
        }
        if (efficiency != null) {
            f.add(String.format(Locale.ROOT, "efficiency %.1f%%", efficiency));
        }
        return f;
    }
}
