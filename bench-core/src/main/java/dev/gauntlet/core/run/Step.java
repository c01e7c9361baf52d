package dev.gauntlet.core.run;

import java.time.Duration;

/**
 * What a client does next: an operation, and how long the client pauses before the operation's intended
 * start (keying and think time in TPC-C terms). The runner does the waiting without holding a thread or,
 * in pooled mode, a connection.
 */
public record Step<S>(Operation<S> operation, long pauseNanos) {

    public Step {
        if (pauseNanos < 0) {
            throw new IllegalArgumentException("pause must not be negative");
        }
    }

    public static <S> Step<S> now(Operation<S> operation) {
        return new Step<>(operation, 0);
    }

    public static <S> Step<S> after(Duration pause, Operation<S> operation) {
        return new Step<>(operation, pause.toNanos());
    }
}
