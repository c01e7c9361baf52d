package dev.gauntlet.tpcc.workload;

/** Cardinalities fixed by the specification (clause 1.2 and 4.3.3.1). */
public final class Scale {
    public static final int ITEMS = 100_000;
    public static final int DISTRICTS_PER_WAREHOUSE = 10;
    public static final int CUSTOMERS_PER_DISTRICT = 3_000;
    public static final int ORDERS_PER_DISTRICT = 3_000;
    /** Orders 2101..3000 of each district are loaded undelivered, with a new_order row (30%). */
    public static final int FIRST_UNDELIVERED_ORDER = 2_101;
    /** An item id that does not exist: 1% of NewOrders order it and must roll back. */
    public static final int UNUSED_ITEM_ID = ITEMS + 1;
    /** Terminals per warehouse when keying and think times are on. */
    public static final int TERMINALS_PER_WAREHOUSE = 10;

    private Scale() {
    }
}
