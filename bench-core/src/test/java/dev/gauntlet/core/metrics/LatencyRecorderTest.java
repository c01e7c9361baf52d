package dev.gauntlet.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Interval snapshots taken while writers record lose nothing and count nothing twice, for writers with stripes of
 * their own (single-writer protocol) and for writers sharing stripes.
 */
class LatencyRecorderTest {

    private static final int VALUES = 300_000;

    private static Histogram recordConcurrently(LatencyRecorder recorder, int writers, boolean ownSlots)
            throws InterruptedException {
        Histogram total = LatencyRecorder.newHistogram();
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int slot = w;
            threads.add(new Thread(() -> {
                for (int i = 1; i <= VALUES; i++) {
                    long value = 1_000L * (slot + 1) + (i % 1000);
                    if (ownSlots) {
                        recorder.record(value, slot);
                    } else {
                        recorder.record(value);
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        Thread reader = new Thread(() -> {
            while (writing.get()) {
                total.add(recorder.takeInterval());
            }
        });
        reader.start();
        for (Thread t : threads) {
            t.join();
        }
        writing.set(false);
        reader.join();
        total.add(recorder.takeInterval());
        return total;
    }

    @Test
    void writersWithStripesOfTheirOwnLoseNothing() throws InterruptedException {
        Histogram total = recordConcurrently(new LatencyRecorder(4), 4, true);
        assertEquals(4L * VALUES, total.getTotalCount());
        assertEquals(VALUES, total.getCountBetweenValues(4_000, 4_999), "writer 3's values, all of them, once");
    }

    @Test
    void writersSharingStripesLoseNothing() throws InterruptedException {
        Histogram total = recordConcurrently(new LatencyRecorder(), 6, false);
        assertEquals(6L * VALUES, total.getTotalCount());
    }

    @Test
    void writerSlotsBeyondTheOwnStripesShare() throws InterruptedException {
        // Slots 0-1 own a stripe; slots 2-5 share.
        Histogram total = recordConcurrently(new LatencyRecorder(2), 6, true);
        assertEquals(6L * VALUES, total.getTotalCount());
    }
}
