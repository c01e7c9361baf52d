package dev.gauntlet.tpcc.schema;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The load's progress bar: rows written against rows expected, rate, warehouses finished. Redrawn in place
 * on a terminal, printed as a line every few seconds otherwise (CI logs).
 */
final class LoadProgress implements AutoCloseable {

    private final PrintStream out;
    private final long expectedRows;
    private final int parts;
    final LongAdder rows = new LongAdder();
    final AtomicInteger finishedParts = new AtomicInteger();
    private final long startNanos = System.nanoTime();
    private final boolean inPlace = System.console() != null;
    private final Thread painter;
    private volatile boolean done;

    LoadProgress(PrintStream out, long expectedRows, int parts) {
        this.out = out;
        this.expectedRows = Math.max(1, expectedRows);
        this.parts = parts;
        this.painter = new Thread(this::paintLoop, "gauntlet-load-progress");
        painter.setDaemon(true);
        painter.start();
    }

    private void paintLoop() {
        long every = inPlace ? 500 : 5000;
        while (!done) {
            try {
                Thread.sleep(every);
            } catch (InterruptedException e) {
                return;
            }
            if (!done) {
                paint(false);
            }
        }
    }

    private synchronized void paint(boolean last) {
        long n = rows.sum();
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        double fraction = Math.min(1.0, (double) n / expectedRows);
        int width = 30;
        int filled = (int) Math.round(fraction * width);
        String line = String.format(Locale.ROOT, "  [%s%s] %3.0f%%  %,d rows  %,.0f rows/s  %d/%d parts  %.1fs",
                "#".repeat(filled), ".".repeat(width - filled), 100 * fraction, n, seconds > 0 ? n / seconds : 0,
                finishedParts.get(), parts, seconds);
        if (inPlace) {
            out.print("\r" + line + (last ? "\n" : ""));
        } else {
            out.println(line);
        }
        out.flush();
    }

    double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    @Override
    public void close() {
        done = true;
        painter.interrupt();
        paint(true);
    }
}
