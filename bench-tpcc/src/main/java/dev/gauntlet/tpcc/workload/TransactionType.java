package dev.gauntlet.tpcc.workload;

import java.time.Duration;
import java.util.function.BiFunction;

/**
 * The five transactions with their share of the deck (clause 5.2.4.2: 10/10/1/1/1 of 23), keying and mean
 * think times (clause 5.2.5.7), and the 90th-percentile response-time limit (clause 5.2.5.3).
 */
public enum TransactionType {
    NEW_ORDER(NewOrder.NAME, 10, 18, 12, 5, NewOrder::random),
    PAYMENT(Payment.NAME, 10, 3, 12, 5, Payment::random),
    ORDER_STATUS(OrderStatus.NAME, 1, 2, 10, 5, OrderStatus::random),
    DELIVERY(Delivery.NAME, 1, 2, 5, 5, Delivery::random),
    STOCK_LEVEL(StockLevel.NAME, 1, 2, 5, 20, StockLevel::random);

    private final String operationName;
    private final int cards;
    private final Duration keying;
    private final double meanThinkSeconds;
    private final Duration p90Limit;
    private final BiFunction<Home, TpccRandom, TransactionMode.Procedural> input;

    TransactionType(String operationName, int cards, int keyingSeconds, double meanThinkSeconds, int p90LimitSeconds,
                    BiFunction<Home, TpccRandom, TransactionMode.Procedural> input) {
        this.operationName = operationName;
        this.cards = cards;
        this.keying = Duration.ofSeconds(keyingSeconds);
        this.meanThinkSeconds = meanThinkSeconds;
        this.p90Limit = Duration.ofSeconds(p90LimitSeconds);
        this.input = input;
    }

    public String operationName() {
        return operationName;
    }

    public int cards() {
        return cards;
    }

    Duration keying() {
        return keying;
    }

    double meanThinkSeconds() {
        return meanThinkSeconds;
    }

    public Duration p90Limit() {
        return p90Limit;
    }

    /** A transaction of this type with fresh random input for a terminal at {@code home}. */
    TransactionMode.Procedural next(Home home, TpccRandom r) {
        return input.apply(home, r);
    }

    /**
     * Clause 5.2.5.3's limits as objectives ({@code p90(newOrder) <= 5s} ...): what {@code --find-max-rate} judges its
     * steps by when no {@code --slo} is given.
     */
    public static String[] responseTimeObjectives() {
        return java.util.Arrays.stream(values())
                .map(t -> "p90(" + t.operationName() + ") <= " + t.p90Limit().toSeconds() + "s").toArray(String[]::new);
    }
}
