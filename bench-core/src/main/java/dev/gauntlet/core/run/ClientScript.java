package dev.gauntlet.core.run;

/**
 * The sequence of steps one client performs. The runner calls {@link #next} only after the previous step
 * completed, from whichever worker thread serves the client, never from two threads at once, so a script
 * may keep plain (non-thread-safe) state such as its random generator.
 */
@FunctionalInterface
public interface ClientScript<S> {

    /** The next step, or null when this client has nothing more to do. */
    Step<S> next();
}
