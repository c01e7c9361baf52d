package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How often one kind of failure happened: its class (retryable, connection, ...), SQLSTATE and an example. */
public record ErrorCount(@JsonProperty("class") String errorClass, String sqlState, long count, String example) {
}
