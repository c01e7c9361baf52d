package dev.gauntlet.tpcc.workload;

import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Workload;
import java.sql.Connection;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Terminals spread over the active warehouses: terminal i has home warehouse {@code i mod active + 1} and
 * district {@code (i / active) mod 10 + 1}, so ten terminals per warehouse cover every district once.
 * Remote warehouses are drawn from the active ones too: warehouses without terminals are left alone.
 */
public final class TpccWorkload implements Workload<Connection> {

    private final int activeWarehouses;
    private final NURandConstants constants;
    private final boolean waits;
    private final TransactionMode mode;
    private final CommittedOrders orders;

    public TpccWorkload(int activeWarehouses, NURandConstants constants, boolean waits) {
        this(activeWarehouses, constants, waits, TransactionMode.STATEMENTS, new CommittedOrders());
    }

    /** @param orders where the keys of the New-Orders heard to commit go, to be looked for after the run */
    public TpccWorkload(int activeWarehouses, NURandConstants constants, boolean waits, TransactionMode mode,
                        CommittedOrders orders) {
        this.activeWarehouses = activeWarehouses;
        this.constants = constants;
        this.waits = waits;
        this.mode = mode;
        this.orders = orders;
    }

    @Override
    public List<String> operationNames() {
        return Arrays.stream(TransactionType.values()).map(TransactionType::operationName).toList();
    }

    @Override
    public ClientScript<Connection> client(int index, int clients, SplittableRandom random) {
        int w = index % activeWarehouses + 1;
        int d = (index / activeWarehouses) % Scale.DISTRICTS_PER_WAREHOUSE + 1;
        return new Terminal(new Home(w, d, activeWarehouses, constants, orders), new TpccRandom(random), waits, mode);
    }
}
