package dev.gauntlet.core.run;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.gauntlet.core.result.Interval;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * "The driver's code is compiled": the operation run most has run at least as many times as the JVM's optimizing
 * compiler waits for before it compiles a method called once per operation ({@link #callsToCompile}), and the
 * just-in-time compilers spent less than {@link #QUIET_SHARE} of the last {@link #WINDOW} compiling, after at least
 * {@code atLeast}. What {@code --prime auto} waits for: until then the hot paths run in the interpreter or in code
 * compiled without a profile, and the compiler threads take CPU the run would count as the driver's. The compilers'
 * time is the JVM's own account ({@link CompilationMXBean}); a JVM that keeps none never settles, and the priming's
 * limit ends it.
 *
 * <p>Why the count: the compilers can be quiet long before the code is compiled. C2 compiles a method once it has
 * been called some thousands of times (HotSpot's {@code Tier4InvocationThreshold}, 5,000, raised while C2's queue is
 * long). At 85-90 cycles a second, the methods bench-trainevents calls once per operation (each with pgjdbc's query
 * path inlined) reached it 60-90 s in; the compilers had been quiet from 45 s, and those compiles, 0.6-1.5 s each,
 * fell in the measured minute.
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
    /** {@link #callsToCompile()} when the JVM does not say: HotSpot's default threshold, 5,000, and half again. */
    static final long DEFAULT_CALLS_TO_COMPILE = 7_500;

    private final Duration atLeast;
    /** The compilers' total time in ms so far; null when the JVM keeps none. */
    private final LongSupplier compilingMillis;
    private final long callsToCompile;
    /** Samples of (time in phase, compilers' total ms), oldest first, spanning a little more than the window. */
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();
    /** Operations completed so far in the run, by name. */
    private final Map<String, Long> completed = new HashMap<>();
    private long mostCompleted;

    public CompilerSettled(Duration atLeast) {
        this(atLeast, jvmCompilers(), callsToCompile());
    }

    /**
     * With the compilers' time read from {@code compilingMillis} (null: none kept), and settled only once an
     * operation has completed {@code callsToCompile} times.
     */
    CompilerSettled(Duration atLeast, LongSupplier compilingMillis, long callsToCompile) {
        this.atLeast = atLeast;
        this.compilingMillis = compilingMillis;
        this.callsToCompile = callsToCompile;
    }

    private static LongSupplier jvmCompilers() {
        CompilationMXBean compilers = ManagementFactory.getCompilationMXBean();
        return compilers != null && compilers.isCompilationTimeMonitoringSupported()
                ? compilers::getTotalCompilationTime : null;
    }

    /**
     * How many calls this JVM's optimizing compiler waits for before it compiles a method: HotSpot's
     * {@code Tier4InvocationThreshold} (its {@code CompileThreshold} without tiered compilation) times its
     * {@code CompileThresholdScaling}, and half as many again, since C2 raises its thresholds while its queue is long
     * (bench-trainevents' add operation was compiled after about 7,000 calls); none when it stops short of C2
     * ({@code TieredStopAtLevel} under 4); the default when the JVM does not say.
     */
    static long callsToCompile() {
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (hotspot == null) {
                return DEFAULT_CALLS_TO_COMPILE;
            }
            boolean tiered = Boolean.parseBoolean(hotspot.getVMOption("TieredCompilation").getValue());
            if (tiered && Long.parseLong(hotspot.getVMOption("TieredStopAtLevel").getValue()) < 4) {
                return 0;
            }
            long calls = Long.parseLong(hotspot.getVMOption(tiered ? "Tier4InvocationThreshold" : "CompileThreshold")
                    .getValue());
            double scaling = Double.parseDouble(hotspot.getVMOption("CompileThresholdScaling").getValue());
            return Math.round(calls * scaling * 1.5);
        } catch (RuntimeException | LinkageError e) {
            return DEFAULT_CALLS_TO_COMPILE;
        }
    }

    @Override
    public void runStarts() {
        samples.clear();
        completed.clear();
        mostCompleted = 0;
    }

    @Override
    public void observe(Interval closed) {
        closed.operations().forEach((name, op) ->
                mostCompleted = Math.max(mostCompleted, completed.merge(name, op.count(), Long::sum)));
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
        return inPhase.compareTo(atLeast) >= 0 && mostCompleted >= callsToCompile && now - oldest[0] >= windowMillis
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
