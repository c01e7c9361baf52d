package dev.gauntlet.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.OperationResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Open-loop fidelity: a synthetic target with a known service time (100 ms) stalls for 5 s, once in the middle of
 * the run and once over its last 2 s. The percentiles the runner reports (the measured latencies plus the lower
 * bounds of the starts it never issued) must be within 1% of what the schedule implies, computed here from first
 * principles: starts every 1/rate from the origin, served first come first served by the clients, each taking the
 * service time, none able to start during the stall. The service time is long enough that the driver's own wake-up
 * lateness (a fraction of a millisecond on a busy 2-core machine, and part of the latency it reports) stays well
 * inside the 1%.
 */
@Tag("long")
class OpenLoopFidelityTest {

    private static final double RATE = 20;
    private static final int CLIENTS = 20;
    private static final long SERVICE = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long STALL = TimeUnit.SECONDS.toNanos(5);
    private static final Duration RUN = Duration.ofSeconds(16);

    /** Sleeps the service time; an operation that would start during the stall waits for its end first. */
    private static final class Stall {
        private final long stallOffset;
        private volatile long origin;
        private volatile long stallStart = Long.MAX_VALUE;
        private volatile long stallEnd = Long.MAX_VALUE;

        Stall(long stallOffsetNanos) {
            this.stallOffset = stallOffsetNanos;
        }

        void work() {
            long now = System.nanoTime();
            if (origin == 0) {
                synchronized (this) {
                    if (origin == 0) {
                        // The first operation starts at the schedule's origin (its slot 0), give or take a few us.
                        origin = now;
                        stallStart = now + stallOffset;
                        stallEnd = stallStart + STALL;
                    }
                }
            }
            if (now >= stallStart && now < stallEnd) {
                sleepUntil(stallEnd);
            }
            sleepUntil(System.nanoTime() + SERVICE);
        }
    }

    private static void sleepUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** What the schedule implies: each start's latency, or for one never issued, the least it waited. */
    private static double[] implied(long stallOffset) {
        long end = RUN.toNanos();
        long a = stallOffset;
        long b = stallOffset + STALL;
        long[] free = new long[CLIENTS];
        List<Double> latencies = new ArrayList<>();
        for (long k = 0; ; k++) {
            long due = (long) (k * 1e9 / RATE);
            if (due >= end) {
                break;
            }
            int server = 0;
            for (int i = 1; i < CLIENTS; i++) {
                if (free[i] < free[server]) {
                    server = i;
                }
            }
            long start = Math.max(due, free[server]);
            if (start >= end) {
                latencies.add((double) (end - due)); // never issued: waited at least until the end
                continue;
            }
            long finish = (start >= a && start < b ? b : start) + SERVICE;
            free[server] = finish;
            latencies.add((double) (finish - due));
        }
        return latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    /** HdrHistogram's definition: the smallest value with at least p% of the values at or below it. */
    private static double percentile(double[] sorted, double p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, index)];
    }

    private static Histogram reported(long stallOffset) throws InterruptedException {
        Stall stall = new Stall(stallOffset);
        Operation<Integer> op = Operation.of("op", s -> stall.work());
        Workload<Integer> w = new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of("op");
            }

            @Override
            public ClientScript<Integer> client(int index, int clients, SplittableRandom random) {
                return () -> Step.now(op);
            }
        };
        RunPlan plan = RunPlan.closedLoop(CLIENTS, RUN).withRate(RATE);
        RunRecord r = new Runner<>(plan, w, SyntheticTarget.direct(), RunListener.NONE, null).run();
        OperationResult result = r.operations().get(0);
        Histogram all = HistogramCodec.decode(result.histogram());
        if (result.unissuedLowerBound() != null) {
            all.add(HistogramCodec.decode(result.unissuedLowerBound().histogram()));
        }
        assertEquals(RATE * RUN.toSeconds(), all.getTotalCount() + result.errors(), 1,
                "every start due in the run is either measured, failed or counted as unissued: " + result.count()
                        + " measured, " + result.errors() + " failed, " + result.unissued() + " unissued, "
                        + r.unfinishedOperations() + " unfinished, intervals " + r.intervals().stream()
                        .map(i -> i.t() + ":" + i.operations().get("op").count()).toList());
        return all;
    }

    private static void assertWithinOnePercent(double[] implied, Histogram reported, String when) {
        for (double p : new double[] {50, 99, 99.9}) {
            double expected = percentile(implied, p);
            double actual = reported.getValueAtPercentile(p);
            // 1%, but never under 3 ms: a loaded 2-core box wakes the driver that late at times (part of the latency it
            // reports). Leaving out the unissued starts or measuring from the actual start misses by seconds.
            assertEquals(expected, actual, Math.max(expected * 0.01, 3e6), when + ": p" + p + " reported "
                    + actual / 1e6 + " ms, the schedule implies " + expected / 1e6 + " ms");
        }
    }

    @Test
    void aStallMidRunShowsInFullInTheReportedPercentiles() throws InterruptedException {
        long offset = TimeUnit.SECONDS.toNanos(5);
        double[] implied = implied(offset);
        assertTrue(percentile(implied, 99) > 4e9, "the stall dominates the tail: " + Arrays.toString(
                Arrays.copyOfRange(implied, implied.length - 3, implied.length)));
        assertWithinOnePercent(implied, reported(offset), "stall at 5-10 s of 16 s");
    }

    @Test
    void aStallAtTheEndIsNotCutOffByTheEndOfTheRun() throws InterruptedException {
        // The stall starts 2 s before the end and outlasts the run: most starts due in those 2 s are never issued,
        // and only their lower bound (end of run - intended start) stands for them.
        long offset = RUN.toNanos() - TimeUnit.SECONDS.toNanos(2);
        double[] implied = implied(offset);
        Histogram reported = reported(offset);
        assertWithinOnePercent(implied, reported, "stall at 14-19 s of 16 s");
    }
}
