package dev.gauntlet.core.bench;

import dev.gauntlet.core.metrics.LatencyRecorder;
import dev.gauntlet.core.metrics.OperationStats;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What it costs a worker thread to record one latency while another thread records into the same operation:
 * the overhead the measurement adds to every operation (target: at most 50 ns). Two threads share one
 * recorder, as two workers running the same transaction type do.
 *
 * <p>Not measured: the reporter's interval swap (once per interval, off the hot path). Values vary per call
 * (a pseudo-random walk over 1 us .. 1 s) so the histogram's bucket lookup is not a constant the JIT folds.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(2)
@State(Scope.Benchmark)
public class RecordingCostBenchmark {

    private LatencyRecorder recorder;
    private OperationStats stats;

    /** Per-thread value generator, so threads do not share a cache line for it. */
    @State(Scope.Thread)
    public static class Values {
        long x = System.nanoTime() | 1;
        int writer;

        long next() {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            return 1_000 + (x & 0x3FFF_FFFFL); // 1 us .. ~1.07 s
        }
    }

    @Setup
    public void setUp() {
        recorder = new LatencyRecorder();
        stats = new OperationStats("newOrder");
    }

    /** One value into one recorder. */
    @Benchmark
    public void recordLatency(Values v) {
        recorder.record(v.next());
    }

    /** What a completed operation costs in full: latency, service time and the success counter. */
    @Benchmark
    public void recordSuccess(Values v) {
        long value = v.next();
        stats.recordSuccess(value, value >>> 1);
    }

    /**
     * One value from a writer slot that moves on every call, over 32 slots sharing the stripes: as 32 virtual workers
     * record on two carriers, each stripe is written from both cores in turn.
     */
    @Benchmark
    public void recordFromWritersMovingBetweenCores(Values v) {
        recorder.record(v.next(), v.writer++ & 31);
    }

    /** The value generator alone, to subtract from the others. */
    @Benchmark
    public void baseline(Values v, Blackhole bh) {
        bh.consume(v.next());
    }

    public static void main(String[] args) throws Exception {
        org.openjdk.jmh.Main.main(new String[] {RecordingCostBenchmark.class.getSimpleName()});
    }
}
