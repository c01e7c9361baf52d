package dev.gauntlet.sql;

import java.time.Duration;

/**
 * Waits for a condition instead of sleeping for a guessed time: the condition is checked at once and then every few
 * milliseconds (5 ms at first, backing off to 50 ms) until it holds or the deadline passes, when the test fails with
 * what was awaited. Deadlines are meant to be generous: a passing test never waits for them.
 */
public final class Await {

    private static final long FIRST_PAUSE_NANOS = Duration.ofMillis(5).toNanos();
    private static final long LONGEST_PAUSE_NANOS = Duration.ofMillis(50).toNanos();

    private Await() {
    }

    /** A condition that may need a query (or a file read) to check. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** An attempt that either succeeds or throws. */
    @FunctionalInterface
    public interface Attempt {
        void run() throws Exception;
    }

    /**
     * Returns once {@code condition} holds; fails with {@code what} ("the slot to confirm ...") when it still does
     * not after {@code limit}. An exception from the condition ends the wait at once.
     */
    public static void until(Duration limit, String what, Condition condition) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        long pause = FIRST_PAUSE_NANOS;
        while (!condition.holds()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("waited " + limit.toMillis() + " ms for " + what + ", in vain");
            }
            pause = pause(pause, deadline);
        }
    }

    /**
     * Runs {@code attempt} until it completes without an exception of type {@code retried} (say a
     * {@link java.sql.SQLException} while a server restarts); any other exception or error ends the wait at once.
     * After {@code limit} it fails with {@code what}, the last {@code retried} exception as the cause.
     */
    public static void untilSucceeds(Duration limit, String what, Class<? extends Exception> retried,
            Attempt attempt) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        long pause = FIRST_PAUSE_NANOS;
        while (true) {
            try {
                attempt.run();
                return;
            } catch (Exception e) {
                if (!retried.isInstance(e)) {
                    throw e;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("waited " + limit.toMillis() + " ms for " + what + ", in vain; last: "
                            + e, e);
                }
            }
            pause = pause(pause, deadline);
        }
    }

    /** Sleeps {@code pause} (never past the deadline by much) and returns the next, longer one. */
    private static long pause(long pause, long deadline) throws InterruptedException {
        long left = Math.max(deadline - System.nanoTime(), 1_000_000L);
        long nanos = Math.min(pause, left);
        Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        return Math.min(pause * 2, LONGEST_PAUSE_NANOS);
    }
}
