package dev.gauntlet.core.run;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Locale;

/**
 * What a run's workers are: operating-system threads, or the JDK's virtual threads (Java 21 and later).
 *
 * <p>Virtual threads are what let a driver with many clients leave the CPU to a database on the same cores. A worker
 * blocked on a socket read holds no OS thread: the JDK's poller wakes it on a carrier, and the carriers are as many as
 * the cores, as pgbench's {@code -j} threads multiplex their connections. With an OS thread a client, 32 clients are 32
 * threads beside the server's 32 backends on two cores: select-only, 32 clients, TLS, Java 25, bench-script ran
 * 20,998 tps on OS threads and 35,311 on virtual ones, pgbench 31,549 (medians of three rounds;
 * reports/bench-script.md, "Virtual threads").
 * With few clients a core the OS threads cost less: a virtual thread's wait goes through the poller.
 *
 * <p>Not for operations that block inside native code (RocksDB's JNI calls): a virtual thread in a native frame
 * holds its carrier, so a few such waits stall every client. Those runs keep {@link #PLATFORM}, the builder's default.
 */
public enum ThreadKind {
    /** Chosen when the run starts, from its clients: {@link #resolve(int)}. */
    AUTO,
    /** One OS thread a worker. */
    PLATFORM,
    /** One virtual thread a worker, scheduled on as many carrier threads as cores (Java 21+). */
    VIRTUAL;

    /** {@code Thread.ofVirtual()}, looked up once; null where this JVM has no virtual threads. */
    private static final MethodHandle OF_VIRTUAL = ofVirtual();
    private static final MethodHandle NAME;
    private static final MethodHandle UNSTARTED;

    static {
        MethodHandle name = null;
        MethodHandle unstarted = null;
        if (OF_VIRTUAL != null) {
            try {
                Class<?> builder = Class.forName("java.lang.Thread$Builder");
                MethodHandles.Lookup l = MethodHandles.publicLookup();
                name = l.findVirtual(builder, "name", MethodType.methodType(builder, String.class));
                unstarted = l.findVirtual(builder, "unstarted", MethodType.methodType(Thread.class, Runnable.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
        NAME = name;
        UNSTARTED = unstarted;
    }

    private static MethodHandle ofVirtual() {
        try {
            Class<?> builder = Class.forName("java.lang.Thread$Builder$OfVirtual");
            return MethodHandles.publicLookup().findStatic(Thread.class, "ofVirtual", MethodType.methodType(builder));
        } catch (ReflectiveOperationException e) {
            return null; // Java 17-20: no virtual threads (19 and 20 only as a preview, not used)
        }
    }

    /** Whether this JVM has virtual threads. */
    public static boolean virtualAvailable() {
        return OF_VIRTUAL != null;
    }

    /** Above this many clients a core, {@code auto} chooses virtual threads (where the JVM has them). */
    public static final int CLIENTS_PER_CORE_FOR_VIRTUAL = 4;

    /**
     * What this kind is for a run of {@code clients}: {@link #AUTO} is virtual threads where the JVM has them and
     * there are more than {@value #CLIENTS_PER_CORE_FOR_VIRTUAL} clients a core, else OS threads; the others are
     * themselves. Measured on two cores shared with the server (reports/bench-script.md, "Virtual threads"): at 4
     * clients a core an OS thread a client costs less a transaction (a virtual thread's wait goes through the JDK's
     * poller); at 8 and 16 a core the OS threads' share of the CPU costs the server more than that.
     */
    public ThreadKind resolve(int clients) {
        if (this != AUTO) {
            return this;
        }
        return virtualAvailable() && clients > CLIENTS_PER_CORE_FOR_VIRTUAL * Runtime.getRuntime().availableProcessors()
                ? VIRTUAL : PLATFORM;
    }

    /**
     * A note for a run of {@code clients} that {@link #AUTO} would put on virtual threads on Java 21+ but this Java has
     * none: many clients a core on as many OS threads take the CPU from a server on the same cores. Empty otherwise.
     */
    public java.util.Optional<String> note(int clients) {
        int cores = Runtime.getRuntime().availableProcessors();
        if (this != AUTO || virtualAvailable() || clients <= CLIENTS_PER_CORE_FOR_VIRTUAL * cores) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(String.format(Locale.ROOT, "note: %d clients on %d cores run on as many OS "
                + "threads on Java %d; on Java 21+ they would run on virtual threads, which leave a server on the same "
                + "cores more of them (--threads)", clients, cores, Runtime.version().feature()));
    }

    /**
     * {@code auto}, {@code platform} or {@code virtual} (any case) as the user typed it; virtual on a JVM without
     * them is refused with the Java version named.
     */
    public static ThreadKind parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        switch (t) {
            case "auto":
                return AUTO;
            case "platform":
                return PLATFORM;
            case "virtual":
                if (!virtualAvailable()) {
                    throw new IllegalArgumentException("virtual threads need Java 21 or later (this is Java "
                            + Runtime.version() + "); use auto or platform");
                }
                return VIRTUAL;
            default:
                throw new IllegalArgumentException("'" + text + "' is not auto, platform or virtual");
        }
    }

    /**
     * A new, unstarted worker thread of this kind (resolved: not {@link #AUTO}); a platform one is a daemon, as
     * virtual ones always are.
     */
    Thread newThread(String name, Runnable work) {
        if (this == AUTO) {
            throw new IllegalStateException("resolve AUTO for the run's clients first");
        }
        if (this == PLATFORM) {
            Thread t = new Thread(work, name);
            t.setDaemon(true);
            return t;
        }
        try {
            Object builder = OF_VIRTUAL.invoke();
            builder = NAME.invoke(builder, name);
            return (Thread) UNSTARTED.invoke(builder, work);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("could not make a virtual thread", e);
        }
    }

    /** As a result's parameter and the summary say it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
