package dev.gauntlet.example.workload;

import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Step;
import dev.gauntlet.core.run.Workload;
import java.sql.Connection;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Each client picks a key uniformly and reads it ({@code readPercent} of the time) or overwrites it with fresh
 * random bytes, back to back. The choices come from the client's seeded random, so a seed repeats a run's keys.
 */
public final class KvWorkload implements Workload<Connection> {

    /** Operation names, as results and reports show them. */
    public static final String GET = Get.NAME;
    public static final String PUT = Put.NAME;

    private final long keys;
    private final int valueSize;
    private final int readPercent;

    public KvWorkload(long keys, int valueSize, int readPercent) {
        if (keys < 1 || valueSize < 1 || readPercent < 0 || readPercent > 100) {
            throw new IllegalArgumentException("keys and value size must be positive, reads 0..100%");
        }
        this.keys = keys;
        this.valueSize = valueSize;
        this.readPercent = readPercent;
    }

    @Override
    public List<String> operationNames() {
        return List.of(GET, PUT);
    }

    @Override
    public ClientScript<Connection> client(int index, int clients, SplittableRandom random) {
        return () -> {
            long key = random.nextLong(keys);
            if (random.nextInt(100) < readPercent) {
                return Step.now(new Get(key));
            }
            byte[] value = new byte[valueSize];
            random.nextBytes(value);
            return Step.now(new Put(key, value));
        };
    }
}
