package dev.gauntlet.tpcc;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The audit of what a run actually did (clauses 5.2.3 and 9.2), from the counts its transactions reported:
 * the mix, New-Order rollbacks, order lines per order, remote order lines, remote and by-name payments,
 * by-name order status, skipped deliveries. Each is SKIP until enough transactions ran for the figure to be
 * meaningful, and the remote ones are SKIP with a single warehouse, where nothing can be remote.
 */
public final class MixAudit {

    /** Fewer relevant transactions than this make a check SKIP: their sampling noise exceeds the band. */
    public static final long MINIMUM_SAMPLE = 10_000;

    private final RunResult run;
    private final List<Check> checks = new ArrayList<>();

    private MixAudit(RunResult run) {
        this.run = run;
    }

    public static List<Check> checks(RunResult run) {
        MixAudit audit = new MixAudit(run);
        audit.mix();
        audit.perTransaction();
        return List.copyOf(audit.checks);
    }

    private OperationResult op(TransactionType type) {
        return run.operation(type.operationName()).orElse(
                OperationResult.of(type.operationName(), 0, 0, 0, 0, null, null, null, null, null));
    }

    private void mix() {
        long total = 0;
        for (TransactionType t : TransactionType.values()) {
            total += op(t).count();
        }
        share("5.2.3 Payment share of the mix", op(TransactionType.PAYMENT).count(), total, 43.0, 100);
        share("5.2.3 Order-Status share of the mix", op(TransactionType.ORDER_STATUS).count(), total, 4.0, 100);
        share("5.2.3 Delivery share of the mix", op(TransactionType.DELIVERY).count(), total, 4.0, 100);
        share("5.2.3 Stock-Level share of the mix", op(TransactionType.STOCK_LEVEL).count(), total, 4.0, 100);
    }

    private void perTransaction() {
        OperationResult newOrder = op(TransactionType.NEW_ORDER);
        long rolledBack = newOrder.counter("rolledBack");
        long committedOrders = newOrder.count() - rolledBack;
        long lines = newOrder.counter("orderLines");
        share("9.2.2 New-Order rollbacks", rolledBack, newOrder.count(), 0.9, 1.1);
        band("9.2.2 order lines per New-Order", lines, committedOrders, 9.5, 10.5, "");
        boolean oneWarehouse = warehouses() == 1;
        if (oneWarehouse) {
            checks.add(Check.skip("9.2.2 remote order lines", "one warehouse: no line can be remote"));
            checks.add(Check.skip("9.2.2 remote Payments", "one warehouse: no payment can be remote"));
        } else {
            shareWithSample("9.2.2 remote order lines", newOrder.counter("remoteOrderLines"), lines, committedOrders,
                    0.95, 1.05);
            OperationResult payment = op(TransactionType.PAYMENT);
            share("9.2.2 remote Payments", payment.counter("remote"), payment.count(), 14, 16);
        }
        OperationResult payment = op(TransactionType.PAYMENT);
        share("9.2.2 Payments by last name", payment.counter("byLastName"), payment.count(), 57, 63);
        OperationResult orderStatus = op(TransactionType.ORDER_STATUS);
        share("9.2.2 Order-Status by last name", orderStatus.counter("byLastName"), orderStatus.count(), 57, 63);
        OperationResult delivery = op(TransactionType.DELIVERY);
        long districts = delivery.counter("districts");
        if (delivery.count() < MINIMUM_SAMPLE) {
            checks.add(Check.skip("9.2.2 skipped deliveries", sample(delivery.count())));
        } else {
            double pct = districts == 0 ? 0 : 100.0 * delivery.counter("skippedDistricts") / districts;
            String detail = String.format(Locale.ROOT, "%.2f%% of %,d districts (at most 1%%)", pct, districts);
            checks.add(pct <= 1.0 ? Check.pass("9.2.2 skipped deliveries", detail)
                    : Check.fail("9.2.2 skipped deliveries", detail));
        }
    }

    private int warehouses() {
        Object w = run.parameters().get("warehouses");
        return w instanceof Number n ? n.intValue() : w == null ? 0 : Integer.parseInt(w.toString());
    }

    private void share(String name, long part, long whole, double lo, double hi) {
        shareWithSample(name, part, whole, whole, lo, hi);
    }

    /** {@code part} as a percentage of {@code whole}, judged once {@code sample} transactions ran. */
    private void shareWithSample(String name, long part, long whole, long sample, double lo, double hi) {
        if (sample < MINIMUM_SAMPLE) {
            checks.add(Check.skip(name, sample(sample)));
            return;
        }
        double pct = whole == 0 ? 0 : 100.0 * part / whole;
        String range = hi >= 100 ? String.format(Locale.ROOT, "at least %.2f%%", lo)
                : String.format(Locale.ROOT, "%.2f-%.2f%%", lo, hi);
        String detail = String.format(Locale.ROOT, "%.2f%% (%,d of %,d; %s)", pct, part, whole, range);
        checks.add(pct >= lo && pct <= hi ? Check.pass(name, detail) : Check.fail(name, detail));
    }

    private void band(String name, long sum, long n, double lo, double hi, String unit) {
        if (n < MINIMUM_SAMPLE) {
            checks.add(Check.skip(name, sample(n)));
            return;
        }
        double mean = (double) sum / n;
        String detail = String.format(Locale.ROOT, "%.2f%s (%,d over %,d; %.2f-%.2f)", mean, unit, sum, n, lo, hi);
        checks.add(mean >= lo && mean <= hi ? Check.pass(name, detail) : Check.fail(name, detail));
    }

    private static String sample(long n) {
        return String.format(Locale.ROOT, "%,d relevant transactions; needs %,d to be meaningful", n, MINIMUM_SAMPLE);
    }
}
