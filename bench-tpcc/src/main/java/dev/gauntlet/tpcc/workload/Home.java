package dev.gauntlet.tpcc.workload;

/**
 * Where a terminal stands: its home warehouse and district, how many warehouses are active (have terminals;
 * remote warehouses are drawn from these, so a run on a subset of the loaded warehouses never touches the
 * others, and with one active warehouse nothing is remote) and the run's NURand constants.
 */
record Home(int warehouse, int district, int activeWarehouses, NURandConstants constants) {

    /** An active warehouse other than home, uniformly; home itself when it is the only one. */
    int remoteWarehouse(TpccRandom r) {
        if (activeWarehouses == 1) {
            return warehouse;
        }
        int w = r.uniform(1, activeWarehouses - 1);
        return w >= warehouse ? w + 1 : w;
    }
}
