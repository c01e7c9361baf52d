package dev.gauntlet.tpcc.schema;

import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.SqlStates;
import dev.gauntlet.tpcc.workload.Dialect;
import dev.gauntlet.tpcc.workload.NURandConstants;
import dev.gauntlet.tpcc.workload.Scale;
import dev.gauntlet.tpcc.workload.TpccRandom;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Loads warehouses 1..n: creates missing tables, records the plan ({@link LoadPlan}), loads the item table and every
 * warehouse not yet recorded as finished, in parallel (one connection per loader thread), then builds keys and indexes,
 * refreshes statistics and marks the plan finished. A warehouse that was partly loaded when a previous load died is
 * deleted and loaded again, so an interrupted load can be finished ({@code init --resume}) instead of started over;
 * whether to finish one is the caller's decision.
 */
public final class Loader {

    /** What a load did. */
    public record Outcome(int warehousesLoaded, int warehousesPresent, long rows, double seconds) {
    }

    private final ConnectionSettings settings;
    private final Dialect dialect;
    private final int threads;
    private final long seed;
    private final PrintStream out;

    /** What the parallel part of a load wrote. */
    private record Written(long rows, double seconds) {
    }

    public Loader(ConnectionSettings settings, Dialect dialect, int threads, long seed, PrintStream out) {
        this.settings = settings;
        this.dialect = dialect;
        this.threads = threads;
        this.seed = seed;
        this.out = out;
    }

    /**
     * Loads whatever of warehouses 1..{@code warehouses} (or of the recorded plan, if larger) and the item table is not
     * recorded as finished, then builds what is missing of keys, indexes and statistics. Nothing to do on a complete
     * load of at least {@code warehouses}.
     */
    public Outcome load(int warehouses) throws SQLException, InterruptedException {
        Schema schema = new Schema(dialect);
        LoadRecord before;
        try (Connection c = settings.connectForAdmin()) {
            schema.create(c);
            before = LoadRecord.read(c);
        }
        if (before.complete() && warehouses <= before.warehouses()) {
            out.printf(Locale.ROOT, "Warehouses 1..%d are already loaded; nothing to do.%n", warehouses);
            return new Outcome(0, before.warehouses(), 0, 0);
        }
        int target = Math.max(warehouses, before.planned());
        int constant = before.lastNameConstant() != null ? before.lastNameConstant()
                : NURandConstants.forLoad(new TpccRandom(seed)).lastName();
        List<Integer> parts = new ArrayList<>();
        if (!before.itemsLoaded()) {
            parts.add(LoadRecord.ITEMS);
        }
        for (int w = 1; w <= target; w++) {
            if (!before.finished().contains(w)) {
                parts.add(w);
            }
        }
        try (Connection c = settings.connectForAdmin()) {
            LoadPlan.start(c, target, seed);
        }
        Written written = parts.isEmpty() ? new Written(0, 0) : loadParts(parts, constant, before.itemsLoaded());
        if (!parts.isEmpty()) {
            out.printf(Locale.ROOT, "Loaded %,d rows in %.1f s. ", written.rows(), written.seconds());
        }
        out.println("Building keys and indexes...");
        long indexStart = System.nanoTime();
        double keys;
        double indexes;
        try (Connection c = settings.connectForAdmin(); Statement s = c.createStatement()) {
            schema.createKeys(c);
            keys = (System.nanoTime() - indexStart) / 1e9;
            schema.createSecondaryIndexes(c);
            indexes = (System.nanoTime() - indexStart) / 1e9 - keys;
            for (Schema.Table t : Schema.TABLES) {
                s.execute("ANALYZE " + t.name());
            }
            LoadPlan.finish(c);
        }
        double indexSeconds = (System.nanoTime() - indexStart) / 1e9;
        out.printf(Locale.ROOT, "Keys %.1f s, indexes %.1f s, statistics %.1f s; load total %.1f s.%n", keys, indexes,
                indexSeconds - keys - indexes, written.seconds() + indexSeconds);
        int warehousesLoaded = (int) parts.stream().filter(p -> p != LoadRecord.ITEMS).count();
        return new Outcome(warehousesLoaded, target, written.rows(), written.seconds() + indexSeconds);
    }

    /** Loads the parts in parallel. */
    private Written loadParts(List<Integer> parts, int constant, boolean itemsLoaded)
            throws SQLException, InterruptedException {
        long loadingWarehouses = parts.stream().filter(p -> p != LoadRecord.ITEMS).count();
        out.printf(Locale.ROOT, "Loading %d warehouse(s)%s with %d thread(s) (%s)...%n", loadingWarehouses,
                itemsLoaded ? "" : " and the item table", Math.min(threads, parts.size()),
                dialect == Dialect.POSTGRES ? "COPY" : "multi-row INSERT");
        String now = LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS)
                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
        long expected = loadingWarehouses * Population.ROWS_PER_WAREHOUSE + (itemsLoaded ? 0 : Scale.ITEMS);
        try (LoadProgress progress = new LoadProgress(out, expected, parts.size())) {
            Population population = new Population(new NURandConstants(constant, 0, 0), now, progress.rows);
            ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, parts.size()), r -> {
                Thread t = new Thread(r, "gauntlet-loader");
                t.setDaemon(true);
                return t;
            });
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int part : parts) {
                    futures.add(pool.submit(() -> {
                        loadPart(part, population, constant);
                        progress.finishedParts.incrementAndGet();
                        return null;
                    }));
                }
                for (int i = 0; i < futures.size(); i++) {
                    try {
                        futures.get(i).get();
                    } catch (ExecutionException e) {
                        futures.forEach(f -> f.cancel(true));
                        int part = parts.get(i);
                        Throwable cause = e.getCause();
                        throw new SQLException("loading " + (part == LoadRecord.ITEMS ? "the item table"
                                : "warehouse " + part) + " failed: " + SqlStates.message(cause)
                                + "; run 'init --resume' to finish the load", cause);
                    }
                }
            } finally {
                pool.shutdownNow();
            }
            return new Written(progress.rows.sum(), progress.seconds());
        }
    }

    private void loadPart(int part, Population population, int constant) throws SQLException {
        try (Connection c = settings.connectForAdmin()) {
            c.setAutoCommit(true);
            if (dialect == Dialect.POSTGRES) {
                try (Statement s = c.createStatement()) {
                    // Loss on a crash only costs init --resume: the finished mark is written last.
                    s.execute("SET synchronous_commit = off");
                }
            }
            Population.Sinks sinks = dialect == Dialect.POSTGRES
                    ? (table, columns) -> new CopyRowSink(c, table, columns)
                    : (table, columns) -> new InsertRowSink(c, table, columns);
            TpccRandom random = new TpccRandom(new SplittableRandom(seed * 31 + part));
            removePartial(c, part);
            if (part == LoadRecord.ITEMS) {
                population.items(sinks, random);
            } else {
                population.warehouse(part, sinks, random);
            }
            LoadRecord.markFinished(c, part, constant);
        }
    }

    /** Deletes whatever an interrupted earlier load left of this part. */
    private static void removePartial(Connection c, int part) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (part == LoadRecord.ITEMS) {
                s.execute("DELETE FROM item");
                return;
            }
            for (String[] t : Schema.PER_WAREHOUSE) {
                s.execute("DELETE FROM " + t[0] + " WHERE " + t[1] + " = " + part);
            }
        }
    }
}
