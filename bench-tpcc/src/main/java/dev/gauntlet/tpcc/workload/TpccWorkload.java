package dev.gauntlet.tpcc.workload;

import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Workload;
import java.sql.Connection;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Terminals spread over their home warehouses: terminal i has home warehouse {@code first + i mod homes} and
 * district {@code (i / homes) mod 10 + 1}, so ten terminals per warehouse cover every district once. The home
 * warehouses are all the active ones, or a driver process's disjoint range of them when several share the run
 * ({@code --worker}). Remote warehouses are drawn from all active ones: warehouses without terminals are left alone.
 */
public final class TpccWorkload implements Workload<Connection> {

    private final int activeWarehouses;
    private final NURandConstants constants;
    private final boolean waits;
    private final TransactionMode mode;
    private final CommittedOrders orders;
    private final int firstHome;
    private final int homes;

    public TpccWorkload(int activeWarehouses, NURandConstants constants, boolean waits) {
        this(activeWarehouses, constants, waits, TransactionMode.STATEMENTS, new CommittedOrders());
    }

    /** @param orders where the keys of the New-Orders heard to commit go, to be looked for after the run */
    public TpccWorkload(int activeWarehouses, NURandConstants constants, boolean waits, TransactionMode mode,
                        CommittedOrders orders) {
        this(activeWarehouses, constants, waits, mode, orders, 1, activeWarehouses);
    }

    /**
     * @param firstHome the first of this process's home warehouses
     * @param homes     how many home warehouses it has, from {@code firstHome} on (all of them within the active ones)
     */
    public TpccWorkload(int activeWarehouses, NURandConstants constants, boolean waits, TransactionMode mode,
                        CommittedOrders orders, int firstHome, int homes) {
        if (homes < 1 || firstHome < 1 || firstHome + homes - 1 > activeWarehouses) {
            throw new IllegalArgumentException("home warehouses " + firstHome + ".." + (firstHome + homes - 1)
                    + " are not among the " + activeWarehouses + " active ones");
        }
        this.activeWarehouses = activeWarehouses;
        this.constants = constants;
        this.waits = waits;
        this.mode = mode;
        this.orders = orders;
        this.firstHome = firstHome;
        this.homes = homes;
    }

    @Override
    public List<String> operationNames() {
        return Arrays.stream(TransactionType.values()).map(TransactionType::operationName).toList();
    }

    @Override
    public ClientScript<Connection> client(int index, int clients, SplittableRandom random) {
        int w = firstHome + index % homes;
        int d = (index / homes) % Scale.DISTRICTS_PER_WAREHOUSE + 1;
        return new Terminal(new Home(w, d, activeWarehouses, constants, orders), new TpccRandom(random), waits, mode);
    }
}
