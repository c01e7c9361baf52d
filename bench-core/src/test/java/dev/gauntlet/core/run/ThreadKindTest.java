package dev.gauntlet.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** What the run's workers are, on this JVM: the suite runs on Java 17 (no virtual threads) and on 25 (virtual). */
class ThreadKindTest {

    private static final boolean JAVA_21 = Runtime.version().feature() >= 21;

    /** {@code Thread.isVirtual()}, which Java 17 does not have: false there. */
    private static boolean isVirtual(Thread t) {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(t);
        } catch (NoSuchMethodException e) {
            return false;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs 4 clients 25 operations each; returns whether each operation's thread was virtual, and the threads' names. */
    private static Set<String> threadsOfARun(ThreadKind kind, Set<Boolean> virtual) throws InterruptedException {
        Set<String> names = ConcurrentHashMap.newKeySet();
        Workload<Integer> w = new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of("op");
            }

            @Override
            public ClientScript<Integer> client(int index, int clients, SplittableRandom random) {
                return () -> Step.now(Operation.of("op", s -> {
                    virtual.add(isVirtual(Thread.currentThread()));
                    names.add(Thread.currentThread().getName());
                    Thread.sleep(1); // a wait, as on a socket: the thread parks
                }));
            }
        };
        RunPlan plan = RunPlan.closedLoop(4, Duration.ofSeconds(5)).toBuilder().iterations(25).threads(kind).build();
        RunRecord r = new Runner<>(plan, w, SyntheticTarget.direct(), RunListener.NONE, null).run();
        assertEquals(100, r.operations().get(0).count());
        return names;
    }

    @Test
    void aPlanRunsItsOperationsOnTheThreadsItNames() throws Exception {
        Set<Boolean> platform = ConcurrentHashMap.newKeySet();
        assertEquals(Set.of("gauntlet-worker-0", "gauntlet-worker-1", "gauntlet-worker-2", "gauntlet-worker-3"),
                threadsOfARun(ThreadKind.PLATFORM, platform));
        assertEquals(Set.of(false), platform);
        if (JAVA_21) {
            Set<Boolean> virtual = ConcurrentHashMap.newKeySet();
            assertEquals(4, threadsOfARun(ThreadKind.VIRTUAL, virtual).size());
            assertEquals(Set.of(true), virtual, "every operation on a virtual thread");
        }
    }

    @Test
    void autoIsVirtualWhereTheJvmHasThemForMoreThanFourClientsACoreAndTheBuilderKeepsPlatform() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(ThreadKind.AUTO, ThreadKind.parse("auto"));
        assertEquals(ThreadKind.PLATFORM, ThreadKind.AUTO.resolve(4 * cores), "4 clients a core: OS threads");
        assertEquals(JAVA_21 ? ThreadKind.VIRTUAL : ThreadKind.PLATFORM, ThreadKind.AUTO.resolve(4 * cores + 1));
        assertEquals(JAVA_21, ThreadKind.virtualAvailable());
        assertEquals(ThreadKind.PLATFORM, ThreadKind.parse("Platform").resolve(1000));
        // On Java 17 a run that would be virtual on 21+ is told so; on 21+, and with few clients, nothing is said.
        assertEquals(!JAVA_21, ThreadKind.AUTO.note(4 * cores + 1).isPresent());
        assertEquals(false, ThreadKind.AUTO.note(4 * cores).isPresent());
        assertEquals(false, ThreadKind.PLATFORM.note(1000).isPresent(), "a kind the user chose");
        // A plan built without saying (RocksDB's fill: native calls would hold the carriers) stays on OS threads.
        assertEquals(ThreadKind.PLATFORM, RunPlan.closedLoop(2, Duration.ofSeconds(1)).threads());
        assertEquals(ThreadKind.VIRTUAL, RunPlan.closedLoop(2, Duration.ofSeconds(1)).toBuilder()
                .threads(ThreadKind.VIRTUAL).build().toBuilder().build().threads(), "a copy keeps the kind");
    }

    @Test
    void virtualIsRefusedWhereTheJvmHasNoneAndATypoAlways() {
        if (JAVA_21) {
            assertEquals(ThreadKind.VIRTUAL, ThreadKind.parse("virtual"));
        } else {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ThreadKind.parse("virtual"));
            assertEquals("virtual threads need Java 21 or later (this is Java " + Runtime.version()
                    + "); use auto or platform", e.getMessage());
        }
        IllegalArgumentException typo = assertThrows(IllegalArgumentException.class, () -> ThreadKind.parse("green"));
        assertEquals("'green' is not auto, platform or virtual", typo.getMessage());
    }
}
