package dev.gauntlet.core.result;

import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * A run's reporting intervals at full resolution, in the order they closed, read one at a time and as often as a
 * reader needs: from the run's {@link TimelineFile} (a long run's result keeps them downsampled) or from a list in
 * memory (a result whose intervals are all inline: every result written before the file, or one read from a result
 * store). A reader that goes through it holds what it keeps of each interval, not the intervals.
 */
public interface Timeline {

    /** How many intervals there are. */
    long size();

    /**
     * The intervals in order, pulled one at a time (a file's read as they are pulled: several timelines can be gone
     * through side by side, as a merge does); close it when done.
     */
    Cursor open();

    /** Each interval in order. */
    default void forEach(Consumer<? super Interval> each) {
        try (Cursor intervals = open()) {
            while (intervals.hasNext()) {
                each.accept(intervals.next());
            }
        }
    }

    /** Whether these are fewer than the run's reporting intervals: a result's downsampled ones, its file missing. */
    boolean downsampled();

    /** A timeline's intervals as they are pulled; closing it closes the file they are read from. */
    interface Cursor extends Iterator<Interval>, Closeable {
        @Override
        void close();
    }

    /** The intervals of a list. */
    static Timeline of(List<Interval> intervals) {
        List<Interval> list = List.copyOf(intervals);
        boolean downsampled = list.stream().anyMatch(i -> i.reportingIntervals() > 1);
        return new Timeline() {
            @Override
            public long size() {
                return list.size();
            }

            @Override
            public Cursor open() {
                Iterator<Interval> each = list.iterator();
                return new Cursor() {
                    @Override
                    public boolean hasNext() {
                        return each.hasNext();
                    }

                    @Override
                    public Interval next() {
                        return each.next();
                    }

                    @Override
                    public void close() {
                    }
                };
            }

            @Override
            public boolean downsampled() {
                return downsampled;
            }
        };
    }

    /**
     * The full timeline of {@code run}, whose {@code result.json} is in {@code dir}: the file the result names when
     * it is there, else the result's own intervals (downsampled, for a long run whose file is gone).
     *
     * @param dir the result's directory; null: the result's own intervals
     */
    static Timeline of(RunResult run, Path dir) {
        FullTimeline full = run.fullTimeline();
        if (full == null || dir == null || !Files.isRegularFile(dir.resolve(full.file()))) {
            return of(run.intervals());
        }
        Path file = dir.resolve(full.file());
        return new Timeline() {
            @Override
            public long size() {
                return full.intervals();
            }

            @Override
            public Cursor open() {
                return TimelineFile.open(file);
            }

            @Override
            public boolean downsampled() {
                return false;
            }
        };
    }
}
