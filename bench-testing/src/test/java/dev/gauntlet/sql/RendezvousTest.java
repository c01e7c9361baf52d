package dev.gauntlet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Driver processes of one split run meeting on a real PostgreSQL: who waits for whom, and for how long. */
@ExtendWith(PostgresExtension.class)
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
class RendezvousTest {

    private static ConnectionSettings settings;

    @BeforeAll
    static void database(TestDatabase server) {
        TestDatabase db = server.freshDatabase("rendezvous");
        settings = new ConnectionSettings(db.jdbcUrl(), db.user(), db.password());
    }

    private static Rendezvous worker(Instant run, int index, int count, PrintStream out) {
        return new Rendezvous(settings, run, WorkerShare.of(index, count), out);
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }

    @Test
    void theOthersGoOnOnlyOnceWorkerZeroHasDoneItsWork() throws Exception {
        Instant run = Instant.now().plusSeconds(1);
        AtomicLong workDone = new AtomicLong();
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        CompletableFuture<Long> other = CompletableFuture.supplyAsync(() -> {
            worker(run, 1, 2, new PrintStream(said, true, StandardCharsets.UTF_8)).afterWorkerZero("tables",
                    () -> { throw new AssertionError("only worker 0 works"); }, "worker 0 to create the tables");
            return System.nanoTime();
        });
        Thread.sleep(1500);
        assertFalse(other.isDone(), "worker 1 waits while worker 0 has not arrived");
        worker(run, 0, 2, quiet()).afterWorkerZero("tables", () -> workDone.set(System.nanoTime()), "-");
        assertTrue(other.get() >= workDone.get(), "worker 1 went on after worker 0's work, not before");
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("worker 1/2: waiting for worker 0 to create the tables"),
                said.toString(StandardCharsets.UTF_8));
    }

    @Test
    void workerZeroGoesOnOnceEveryWorkerArrivedTheOthersAtOnce() throws Exception {
        Instant run = Instant.now();
        CompletableFuture<Boolean> zero = CompletableFuture.supplyAsync(() ->
                worker(run, 0, 3, quiet()).allArrived("ledgers", Duration.ZERO, "every ledger"));
        assertFalse(worker(run, 1, 3, quiet()).allArrived("ledgers", Duration.ZERO, "-"), "worker 1 does not wait");
        Thread.sleep(1500);
        assertFalse(zero.isDone(), "worker 2 has not arrived");
        assertFalse(worker(run, 2, 3, quiet()).allArrived("ledgers", Duration.ZERO, "-"));
        assertTrue(zero.get(), "worker 0 holds every ledger now");
    }

    @Test
    void aProcessThatRunsItAllIsWorkerZeroOfOneAndMeetsNobody() {
        Rendezvous whole = worker(null, 0, 1, quiet());
        AtomicLong worked = new AtomicLong();
        whole.afterWorkerZero("tables", worked::incrementAndGet, "-");
        assertEquals(1, worked.get(), "it does the work itself");
        assertTrue(whole.allArrived("ledgers", Duration.ZERO, "-"), "and holds every ledger at once");
        assertThrows(IllegalArgumentException.class, () -> worker(null, 1, 2, quiet()), "a split needs --start-at");
    }

    @Test
    void anEarlierRunsArrivalsDoNotCountAndAWaitThatNeverEndsFailsWithOneLine() {
        Instant earlier = Instant.now().minusSeconds(3600);
        worker(earlier, 0, 2, quiet()).arrive("tables");
        Instant now = Instant.now().minusSeconds(1);
        DatabaseUnavailableException e = assertThrows(DatabaseUnavailableException.class, () ->
                worker(now, 1, 2, quiet()).await("tables", 1, Duration.ofSeconds(2), "worker 0 to create the tables"));
        assertEquals("worker 1/2: waiting for worker 0 to create the tables: gave up after 2 s", e.getMessage());
    }
}
