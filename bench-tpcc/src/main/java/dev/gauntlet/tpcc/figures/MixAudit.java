package dev.gauntlet.tpcc.figures;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.tpcc.workload.CustomerChoice;
import dev.gauntlet.tpcc.workload.Deck;
import dev.gauntlet.tpcc.workload.Delivery;
import dev.gauntlet.tpcc.workload.NewOrder;
import dev.gauntlet.tpcc.workload.Payment;
import dev.gauntlet.tpcc.workload.TransactionType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The audit of what a run actually did (clauses 5.2.3 and 9.2), from the counts its transactions reported:
 * the mix, New-Order rollbacks, order lines per order, remote order lines, remote and by-name payments,
 * by-name order status, skipped deliveries.
 *
 * <p>Every share the workload draws at random is judged as an {@link AuditedShare}: within the spec's band or
 * within the 99.999% binomial interval around the drawn share, so a correct run fails each at most 1 time in
 * 100,000 and the whole audit at most 1 time in 10,000, however short it is, and SKIP while the sample is too small for that to mean anything. The remote
 * shares are SKIP with a single active warehouse, where nothing can be remote. The two figures that are not
 * drawn shares (lines per order, a mean; skipped deliveries, a limit) keep a fixed minimum sample.
 */
public final class MixAudit {

    /**
     * Fewer relevant transactions than this make the two figures that are not shares SKIP. At this sample the
     * lines-per-order band (9.5-10.5 around a drawn mean of 10, standard deviation 3.2 per order) is 15
     * standard errors wide each side, so a correct run never fails it by chance.
     */
    public static final long MINIMUM_SAMPLE = 10_000;

    /** Clause 9.2.2.5: at most 1% of Delivery transactions may skip a district. */
    private static final double MAX_SKIPPING_DELIVERIES_PERCENT = 1.0;

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

    /** Clause 5.2.3's minimum share of each type but New-Order, drawn by the deck at its cards out of 23. */
    private void mix() {
        long total = 0;
        for (TransactionType t : TransactionType.values()) {
            total += op(t).count();
        }
        mixShare("Payment", TransactionType.PAYMENT, 43.0, total);
        mixShare("Order-Status", TransactionType.ORDER_STATUS, 4.0, total);
        mixShare("Delivery", TransactionType.DELIVERY, 4.0, total);
        mixShare("Stock-Level", TransactionType.STOCK_LEVEL, 4.0, total);
    }

    private void mixShare(String label, TransactionType type, double minimumPercent, long total) {
        double drawn = 100.0 * type.cards() / Deck.size();
        AuditedShare share = new AuditedShare("5.2.3 " + label + " share of the mix", label, "transactions", drawn,
                minimumPercent, 100);
        checks.add(share.judge(op(type).count(), total));
    }

    private void perTransaction() {
        OperationResult newOrder = op(TransactionType.NEW_ORDER);
        long rolledBack = newOrder.counter("rolledBack");
        long committedOrders = newOrder.count() - rolledBack;
        long lines = newOrder.counter("orderLines");
        checks.add(new AuditedShare("9.2.2 New-Order rollbacks", "rollbacks", "New-Orders",
                NewOrder.ROLLBACK_PERCENT, 0.9, 1.1).judge(rolledBack, newOrder.count()));
        band("9.2.2 order lines per New-Order", lines, committedOrders, 9.5, 10.5);
        OperationResult payment = op(TransactionType.PAYMENT);
        if (activeWarehouses() == 1) {
            checks.add(Check.skip("9.2.2 remote order lines", "one active warehouse: no line can be remote"));
            checks.add(Check.skip("9.2.2 remote Payments", "one active warehouse: no payment can be remote"));
        } else {
            checks.add(new AuditedShare("9.2.2 remote order lines", "remote", "order lines",
                    NewOrder.REMOTE_LINE_PERCENT, 0.95, 1.05).judge(newOrder.counter("remoteOrderLines"), lines));
            checks.add(new AuditedShare("9.2.2 remote Payments", "remote", "Payments", Payment.REMOTE_PERCENT, 14, 16)
                    .judge(payment.counter("remote"), payment.count()));
        }
        checks.add(new AuditedShare("9.2.2 Payments by last name", "by last name", "Payments",
                CustomerChoice.BY_LAST_NAME_PERCENT, 57, 63).judge(payment.counter("byLastName"), payment.count()));
        OperationResult orderStatus = op(TransactionType.ORDER_STATUS);
        checks.add(new AuditedShare("9.2.2 Order-Status by last name", "by last name", "Order-Statuses",
                CustomerChoice.BY_LAST_NAME_PERCENT, 57, 63)
                .judge(orderStatus.counter("byLastName"), orderStatus.count()));
        skippedDeliveries(op(TransactionType.DELIVERY));
    }

    /** Per Delivery transaction, not per district: one that skipped any of its ten districts counts once. */
    private void skippedDeliveries(OperationResult delivery) {
        String name = "9.2.2 skipped deliveries";
        if (delivery.count() < MINIMUM_SAMPLE) {
            checks.add(Check.skip(name, sample(delivery.count())));
            return;
        }
        double pct = 100.0 * delivery.counter(Delivery.WITH_SKIPPED_DISTRICTS) / delivery.count();
        String detail = String.format(Locale.ROOT, "%.2f%% of %,d Delivery transactions skipped a district "
                + "(at most %.0f%%)", pct, delivery.count(), MAX_SKIPPING_DELIVERIES_PERCENT);
        checks.add(pct <= MAX_SKIPPING_DELIVERIES_PERCENT ? Check.pass(name, detail) : Check.fail(name, detail));
    }

    /** The active warehouses, where remote ones are drawn from; a result written before they were, all of them. */
    private int activeWarehouses() {
        Object w = run.parameters().getOrDefault("activeWarehouses", run.parameters().get("warehouses"));
        return w instanceof Number n ? n.intValue() : w == null ? 0 : Integer.parseInt(w.toString());
    }

    private void band(String name, long sum, long n, double lo, double hi) {
        if (n < MINIMUM_SAMPLE) {
            checks.add(Check.skip(name, sample(n)));
            return;
        }
        double mean = (double) sum / n;
        String detail = String.format(Locale.ROOT, "%.2f (%,d over %,d; %.2f-%.2f)", mean, sum, n, lo, hi);
        checks.add(mean >= lo && mean <= hi ? Check.pass(name, detail) : Check.fail(name, detail));
    }

    private static String sample(long n) {
        return String.format(Locale.ROOT, "%,d relevant transactions; needs %,d to be meaningful", n, MINIMUM_SAMPLE);
    }
}
