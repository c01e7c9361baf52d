package dev.gauntlet.core.run;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.function.LongSupplier;

/**
 * "The driver's code is compiled": the JVM's just-in-time compilers spent less than {@link #QUIET_SHARE} of the last
 * {@link #WINDOW} compiling, after at least {@code atLeast}. What {@code --prime auto} waits for: until then the hot
 * paths run in the interpreter or in code compiled without a profile, and the compiler threads take CPU the run
 * would count as the driver's. The compilers' time is the JVM's own account ({@link CompilationMXBean}); a JVM that
 * keeps none never settles, and the priming's limit ends it.
 */
public final class CompilerSettled implements Condition {

    /**
     * How far back the compilers' time is compared. Long, because C2 compiles come in bursts: at a few hundred
     * operations a second each hot method reaches its threshold in its own time, and a 3 s window found quiet gaps
     * between bursts (a train-events run ended its priming 17 s in, and its compiler thread then spent 41 ms a
     * second for the next minute of the measured run).
     */
    public static final Duration WINDOW = Duration.ofSeconds(10);
    /** The share of {@link #WINDOW} below which the compilers count as settled. */
    public static final double QUIET_SHARE = 0.03;

    private final Duration atLeast;
    /** The compilers' total time in ms so far; null when the JVM keeps none. */
    private final LongSupplier compilingMillis;
    /** Samples of (time in phase, compilers' total ms), oldest first, spanning a little more than the window. */
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();

    public CompilerSettled(Duration atLeast) {
        this(atLeast, jvmCompilers());
    }

    /** With the compilers' time read from {@code compilingMillis} (null: none kept). */
    CompilerSettled(Duration atLeast, LongSupplier compilingMillis) {
        this.atLeast = atLeast;
        this.compilingMillis = compilingMillis;
    }

    private static LongSupplier jvmCompilers() {
        CompilationMXBean compilers = ManagementFactory.getCompilationMXBean();
        return compilers != null && compilers.isCompilationTimeMonitoringSupported()
                ? compilers::getTotalCompilationTime : null;
    }

    @Override
    public void runStarts() {
        samples.clear();
    }

    @Override
    public boolean holds(Duration inPhase) {
        if (compilingMillis == null) {
            return false;
        }
        long now = inPhase.toMillis();
        long compiling = compilingMillis.getAsLong();
        samples.addLast(new long[] {now, compiling});
        long windowMillis = WINDOW.toMillis();
        // Keep the newest sample at least a window old (and those after it): the window's start.
        while (samples.size() > 1 && now - second()[0] >= windowMillis) {
            samples.removeFirst();
        }
        long[] oldest = samples.peekFirst();
        return inPhase.compareTo(atLeast) >= 0 && now - oldest[0] >= windowMillis
                && compiling - oldest[1] < QUIET_SHARE * (now - oldest[0]);
    }

    private long[] second() {
        var it = samples.iterator();
        it.next();
        return it.next();
    }

    /** What the priming waits for, as the run's announcement says it: "until the compilers settle". */
    @Override
    public String toString() {
        return "the compilers settle";
    }
}
