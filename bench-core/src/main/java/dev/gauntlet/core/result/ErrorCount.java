package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * How often one kind of failure happened in the measured phase: its class, code (SQLSTATE) and an example.
 * Classes: {@code retried} (an attempt failed with a serialization failure or deadlock and was retried: not
 * an error), {@code reconnect} (an attempt to re-open a lost session failed: not an operation, so not an error
 * either; the run's {@code reconnects} count all attempts), {@code retryable} (still failing after the last attempt), {@code connection},
 * {@code ambiguous-commit}, {@code timeout}, {@code fatal}.
 */
public record ErrorCount(@JsonProperty("class") String errorClass, String sqlState, long count, String example) {

    public static final String RETRIED = "retried";
    public static final String RECONNECT = "reconnect";

    /** True for the classes that ended an operation; false for retried attempts and failed reconnects. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean endedAnOperation() {
        return !RETRIED.equals(errorClass) && !RECONNECT.equals(errorClass);
    }
}
