package dev.gauntlet.core.run;

import dev.gauntlet.core.result.DisruptionRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Starts and stops the plan's disruptions at their times, each on a thread of its own (one that runs to
 * completion must not hold up the next), and records what each did. At the end of the run it switches off any
 * still on and records the ones that never started. A disruption another driver process injects
 * ({@link DisruptionPlan#injected()} false) is not touched: it is recorded {@link DisruptionRecord#PLANNED}.
 */
final class DisruptionSchedule {

    private final List<Scheduled> scheduled = new ArrayList<>();
    private final IntervalClock clock;
    private final BooleanSupplier stopping;

    /** One planned disruption and what it did; fields written by its thread, read after it is joined. */
    private final class Scheduled implements Runnable {
        final DisruptionPlan plan;
        /** When it starts as planned; {@link IntervalClock#moved} says when that is now. */
        final long plannedStart;
        final List<String> notes = Collections.synchronizedList(new ArrayList<>());
        final Map<String, Double> figures = Collections.synchronizedMap(new LinkedHashMap<>());
        final Disruption.Log log = new Disruption.Log() {
            @Override
            public void note(String message) {
                notes.add(message);
            }

            @Override
            public void figure(String name, double value) {
                figures.put(name, value);
            }
        };
        volatile Double started;
        volatile Double ended;
        volatile boolean on;
        volatile boolean failed;
        Thread thread;

        Scheduled(DisruptionPlan plan, long runStart) {
            this.plan = plan;
            this.plannedStart = runStart + plan.at().toNanos();
        }

        @Override
        public void run() {
            try {
                if (!sleepUntil(() -> clock.moved(plannedStart))) {
                    return;
                }
                long startedAt = System.nanoTime();
                started = clock.seconds(startedAt);
                on = true;
                plan.disruption().start(log);
                if (plan.length() == null) {
                    ended = clock.seconds(System.nanoTime());
                    on = false;
                    return;
                }
                long off = startedAt + plan.length().toNanos();
                sleepUntil(() -> off);
                switchOff();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception | LinkageError e) {
                failed = true;
                notes.add(plan.disruption().name() + " failed: " + e);
                switchOff();
            }
        }

        /** Undoes a disruption that is on; safe to call twice. */
        synchronized void switchOff() {
            if (!on) {
                return;
            }
            on = false;
            try {
                plan.disruption().stop(log);
            } catch (Exception | LinkageError e) {
                failed = true;
                notes.add("stopping " + plan.disruption().name() + " failed: " + e);
            }
            ended = clock.seconds(System.nanoTime());
        }

        /** The end of the run: its undo, once, when it started. */
        void undo() {
            if (started == null) {
                return;
            }
            try {
                plan.disruption().undo(log);
            } catch (Exception | LinkageError e) {
                failed = true;
                notes.add("undoing " + plan.disruption().name() + " failed: " + e);
            }
        }

        DisruptionRecord record() {
            Double plannedEnd = plan.length() == null ? null
                    : (plan.at().toNanos() + plan.length().toNanos()) / 1e9;
            if (!plan.injected()) {
                return new DisruptionRecord(plan.disruption().name(), plan.at().toNanos() / 1e9, plannedEnd, null,
                        null, DisruptionRecord.PLANNED, List.of("injected by another driver process of the run "
                        + "(worker 0), not this one: the planned times only"));
            }
            String outcome = started == null ? DisruptionRecord.NOT_STARTED
                    : failed ? DisruptionRecord.FAILED : DisruptionRecord.DONE;
            List<String> all;
            synchronized (notes) {
                all = new ArrayList<>(notes);
            }
            if (started == null) {
                all.add("the run ended before its start");
            }
            Map<String, Double> measured;
            synchronized (figures) {
                measured = new LinkedHashMap<>(figures);
            }
            return new DisruptionRecord(plan.disruption().name(), plan.at().toNanos() / 1e9, plannedEnd, started,
                    ended, outcome, all, measured);
        }
    }

    /** @param stopping whether the run is ending: a disruption not yet started then never starts */
    DisruptionSchedule(List<DisruptionPlan> plans, IntervalClock clock, BooleanSupplier stopping) {
        this.clock = clock;
        this.stopping = stopping;
        plans.forEach(p -> scheduled.add(new Scheduled(p, clock.start())));
    }

    /** Starts the thread of each disruption this process injects. */
    void start() {
        for (Scheduled s : scheduled) {
            if (!s.plan.injected()) {
                continue;
            }
            s.thread = new Thread(s, "gauntlet-disruption-" + s.plan.disruption().name());
            s.thread.setDaemon(true);
            s.thread.start();
        }
    }

    /**
     * Waits until {@code at} (asked again each time it wakes: a phase ending early moves it up), or returns false when
     * the run is stopping first.
     */
    private boolean sleepUntil(LongSupplier at) throws InterruptedException {
        for (long left = at.getAsLong() - System.nanoTime(); left > 0; left = at.getAsLong() - System.nanoTime()) {
            if (stopping.getAsBoolean()) {
                return false;
            }
            TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
        }
        return !stopping.getAsBoolean();
    }

    /**
     * Called when the run has ended: nothing stays disrupted (each one still on switched off, then every one that
     * started undone); what each disruption did, in plan order.
     */
    List<DisruptionRecord> finish() throws InterruptedException {
        for (Scheduled s : scheduled) {
            if (s.thread == null) {
                continue;
            }
            s.thread.interrupt();
            s.thread.join(TimeUnit.SECONDS.toMillis(30));
            s.switchOff();
            s.undo();
        }
        return scheduled.stream().map(Scheduled::record).toList();
    }
}
