package dev.gauntlet.tpcc;

/**
 * Where a terminal stands: its home warehouse and district, how many warehouses exist (remote warehouses
 * are drawn from all of them) and the run's NURand constants.
 */
record Home(int warehouse, int district, int warehouses, NURandConstants constants) {

    /** A warehouse other than home, uniformly; home itself when it is the only one. */
    int remoteWarehouse(TpccRandom r) {
        if (warehouses == 1) {
            return warehouse;
        }
        int w = r.uniform(1, warehouses - 1);
        return w >= warehouse ? w + 1 : w;
    }
}
