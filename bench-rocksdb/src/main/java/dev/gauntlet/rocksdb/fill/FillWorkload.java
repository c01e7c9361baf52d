package dev.gauntlet.rocksdb.fill;

import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.Step;
import dev.gauntlet.core.run.Workload;
import java.util.List;
import java.util.SplittableRandom;

/**
 * db_bench's fillseq and fillrandom as a runner workload. Each client (thread) does its share of
 * {@code num} puts: in fillseq a consecutive range of keys in ascending order, in fillrandom keys drawn
 * uniformly from [0, num) with replacement, like db_bench. With {@code --flush-wal every:N} a client also
 * calls {@code FlushWAL(false)} after every N of its puts, as its own operation ({@value #FLUSH_WAL}).
 *
 * <p>Steps have no pause, so the runner executes a client's operations back to back on one worker thread
 * without going through its delay queue; the same {@link Step} object is handed out every time.
 */
public final class FillWorkload implements Workload<WriteContext> {

    public static final String PUT = "put";
    public static final String FLUSH_WAL = "flushWal";

    private final FillSettings settings;

    public FillWorkload(FillSettings settings) {
        this.settings = settings;
    }

    @Override
    public List<String> operationNames() {
        return flushEvery() > 0 ? List.of(PUT, FLUSH_WAL) : List.of(PUT);
    }

    @Override
    public ClientScript<WriteContext> client(int index, int clients, SplittableRandom random) {
        if (clients != settings.threads()) {
            throw new IllegalArgumentException("the plan has " + clients + " clients but the fill " + settings.threads() + " threads");
        }
        return new FillClient(settings.order(), settings.num(), settings.putsOf(index), settings.firstKeyOf(index),
                flushEvery(), random);
    }

    /** Operations (puts and flushes) the busiest client performs: the plan's iteration bound. */
    public long stepsPerClient() {
        long puts = settings.putsOf(0);
        long every = flushEvery();
        return puts + (every > 0 ? puts / every : 0);
    }

    private long flushEvery() {
        return settings.flushWal().kind() == FlushWalPolicy.Kind.EVERY ? settings.flushWal().every() : 0;
    }

    /** One writer's sequence of keys; the runner never calls it from two threads at once. */
    private static final class FillClient implements ClientScript<WriteContext> {
        private final FillOrder order;
        private final long num;
        private final long flushEvery;
        private final SplittableRandom random;
        private final Step<WriteContext> putStep;
        private final Step<WriteContext> flushStep;
        private long remaining;
        private long nextSequential;
        private long sinceFlush;
        private long key;

        FillClient(FillOrder order, long num, long puts, long firstKey, long flushEvery, SplittableRandom random) {
            this.order = order;
            this.num = num;
            this.remaining = puts;
            this.nextSequential = firstKey;
            this.flushEvery = flushEvery;
            this.random = random;
            this.putStep = Step.now(Operation.of(PUT, session -> session.put(key)));
            this.flushStep = Step.now(Operation.of(FLUSH_WAL, WriteContext::flushWal));
        }

        @Override
        public Step<WriteContext> next() {
            if (flushEvery > 0 && sinceFlush == flushEvery) {
                sinceFlush = 0;
                return flushStep;
            }
            if (remaining == 0) {
                return null;
            }
            remaining--;
            sinceFlush++;
            key = order == FillOrder.SEQ ? nextSequential++ : random.nextLong(num);
            return putStep;
        }
    }
}
