package dev.gauntlet.core.run;

/**
 * Each operation's end, told as it happens, from the same timestamps the run's histograms record (no second timing):
 * what a per-transaction log (pgbench's {@code -l}) is written from. Called from the runner's worker threads, for
 * operations of every phase; an operation that was retried is told once, at its end.
 */
public interface OperationLog extends AutoCloseable {

    /**
     * @param client      the client's index (0-based) in its role
     * @param operation   the operation's name
     * @param intended    when its first attempt was due ({@code System.nanoTime()}): its schedule under a rate, else
     *                    when the client was ready
     * @param started     when its first attempt started
     * @param ended       when it ended (committed, or failed for good)
     * @param failure     null when it succeeded; else why it failed for good
     * @param attempts    the attempts it took, 1 when not retried
     */
    void ended(int client, String operation, long intended, long started, long ended, Failure failure, int attempts);

    /** The run is over: nothing more is told. */
    @Override
    void close();

    /** Both told, {@code first} first; either may be null. */
    static OperationLog both(OperationLog first, OperationLog second) {
        if (first == null || second == null) {
            return first == null ? second : first;
        }
        return new OperationLog() {
            @Override
            public void ended(int client, String operation, long intended, long started, long ended,
                              Failure failure, int attempts) {
                first.ended(client, operation, intended, started, ended, failure, attempts);
                second.ended(client, operation, intended, started, ended, failure, attempts);
            }

            @Override
            public void close() {
                try {
                    first.close();
                } finally {
                    second.close();
                }
            }
        };
    }
}
