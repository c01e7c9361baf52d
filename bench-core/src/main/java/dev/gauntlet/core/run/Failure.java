package dev.gauntlet.core.run;

/**
 * A classified failure: what the runner should do about it, the code the target gave (SQLSTATE), and the
 * message. The table from codes to kinds lives with the target (e.g. SQLSTATEs in the db package); what
 * each kind means for the run lives in the runner.
 */
public record Failure(Kind kind, String code, String message) {

    public enum Kind {
        /** Serialization failure or deadlock: retry the whole transaction after a backoff. */
        RETRY("retryable"),
        /** The session is gone: drop it, reconnect with backoff, keep the run going. */
        CONNECTION("connection"),
        /** The commit may or may not have happened (connection lost during COMMIT, 40003). */
        AMBIGUOUS_COMMIT("ambiguous-commit"),
        /** A statement, lock or pool timeout: counted, the client moves on. */
        TIMEOUT("timeout"),
        /** Anything else: the run stops with this message. */
        FATAL("fatal");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** The class name used in results and reports. */
        public String label() {
            return label;
        }
    }

    public static Failure fatal(Throwable t) {
        return new Failure(Kind.FATAL, "", String.valueOf(t.getMessage() == null ? t.toString() : t.getMessage()));
    }
}
