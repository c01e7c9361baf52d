package dev.gauntlet.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Timing;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Observations: what operations see in their data reaches runner-owned histograms and counters, exactly, and
 * only when the attempt that saw it commits.
 */
class ObservationTest {

    private static final long DELAY = TimeUnit.MILLISECONDS.toNanos(200);
    private static final int MESSAGES = 8;

    /**
     * A producer writes its due time (on the run's clock) into a message; a consumer holds each message until it is
     * exactly {@code DELAY} old and then reports it. The end-to-end latency the runner records must be that delay,
     * within the histograms' 3 significant digits.
     */
    @Test
    void anEndToEndLatencyEqualsTheKnownDelayOfAProducerConsumerPair() throws InterruptedException {
        ArrayDeque<Long> queue = new ArrayDeque<>();
        Operation<Integer> produce = Operation.observing("produce", (s, attempt) -> {
            queue.add(attempt.intendedEpochNanos());
            attempt.count("messages", 1);
        });
        Operation<Integer> consume = Operation.observing("consume", (s, attempt) -> {
            long producedAt = queue.remove();
            // The synthetic consumer holds the message until it is exactly DELAY old (test code may read the clock).
            long releaseAt = RunClock.nanoTime(producedAt + DELAY);
            // Sleep most of the way, then spin: a sleep can overshoot by milliseconds on a busy machine.
            long sleepFor = releaseAt - System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(20);
            if (sleepFor > 0) {
                TimeUnit.NANOSECONDS.sleep(sleepFor);
            }
            while (System.nanoTime() < releaseAt) {
                Thread.onSpinWait();
            }
            attempt.latencySince("endToEnd", producedAt);
            attempt.gauge("backlog", queue.size());
        });
        Workload<Integer> pair = new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of("produce", "consume");
            }

            @Override
            public ClientScript<Integer> client(int index, int clients, SplittableRandom random) {
                boolean[] producing = {true};
                return () -> {
                    Step<Integer> step = Step.now(producing[0] ? produce : consume);
                    producing[0] = !producing[0];
                    return step;
                };
            }
        };
        RunPlan plan = RunPlan.closedLoop(1, Duration.ofMinutes(1)).withIterations(2 * MESSAGES);
        RunRecord r = new Runner<>(plan, pair, SyntheticTarget.direct(), RunListener.NONE, null).run();

        Timing e2e = r.observations().get("endToEnd");
        assertEquals(MESSAGES, e2e.count());
        Histogram h = HistogramCodec.decode(e2e.histogram());
        double precision = DELAY * 0.001;
        assertTrue(h.getMinValue() >= DELAY - precision, "min " + h.getMinValue() + " ns, delay " + DELAY);
        // At least one observation is the delay within the histogram's precision: a clock error (a wrong anchor, a
        // unit slip) would shift every one. Not all: on a busy 2-core machine a thread can be preempted for
        // milliseconds between the consumer's release and the runner's clock read, which is real latency.
        assertTrue(h.getMinValue() <= DELAY + precision, "min " + h.getMinValue() + " ns, delay " + DELAY);
        assertTrue(h.getValueAtPercentile(50) <= DELAY * 1.05, "p50 " + h.getValueAtPercentile(50));
        OperationResult produced = r.operations().stream().filter(o -> o.name().equals("produce")).findFirst()
                .orElseThrow();
        assertEquals(MESSAGES, produced.counter("messages"));
        assertEquals(0L, r.gauges().get("backlog").last());
        long inIntervals = r.intervals().stream().map(Interval::observations)
                .mapToLong(m -> m.containsKey("endToEnd") ? m.get("endToEnd").count() : 0).sum();
        assertEquals(MESSAGES, inIntervals, "observations are in the intervals too");
    }

    @Test
    void whatAFailedAttemptObservedIsDiscarded() throws InterruptedException {
        int[] calls = {0};
        Operation<Integer> flaky = Operation.observing("read", (s, attempt) -> {
            attempt.latency("serverReported", 5_000_000);
            attempt.count("rows", 3);
            if (++calls[0] % 2 == 1) {
                throw new SyntheticTarget.Fault(Failure.Kind.RETRY);
            }
        });
        Workload<Integer> w = new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of("read");
            }

            @Override
            public ClientScript<Integer> client(int index, int clients, SplittableRandom random) {
                return () -> Step.now(flaky);
            }
        };
        RunRecord r = new Runner<>(RunPlan.closedLoop(1, Duration.ofMinutes(1)).withIterations(5), w,
                SyntheticTarget.direct(), RunListener.NONE, null).run();
        OperationResult read = r.operations().get(0);
        assertEquals(5, read.count());
        assertEquals(5, read.retries());
        assertEquals(5, r.observations().get("serverReported").count(), "one per committed attempt, none per retry");
        assertEquals(15, read.counter("rows"));
    }
}
