package dev.gauntlet.tpcc.workload;

/**
 * Where a terminal stands: its home warehouse and district, how many warehouses are active (have terminals;
 * remote warehouses are drawn from these, so a run on a subset of the loaded warehouses never touches the
 * others, and with one active warehouse nothing is remote), the run's NURand constants, and the ledger of the
 * run's committed New-Orders.
 */
record Home(int warehouse, int district, int activeWarehouses, NURandConstants constants, CommittedOrders orders) {

    /** An active warehouse other than home, uniformly; home itself when it is the only one. */
    int remoteWarehouse(TpccRandom r) {
        if (activeWarehouses == 1) {
            return warehouse;
        }
        int w = r.uniform(1, activeWarehouses - 1);
        return w >= warehouse ? w + 1 : w;
    }
}
