package dev.gauntlet.queue.pubsub;

import dev.gauntlet.core.result.LedgerFile;
import dev.gauntlet.core.result.WorkerShare;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What each consumer group committed to having read, per partition, as offset ranges recorded after each read
 * commits (in whatever order the readers' commits are seen). At the end the ranges of a group's partition, sorted,
 * must tile {@code 0..committed} exactly: a hole is a lost message, an overlap a message delivered twice. Beside
 * them, what the writers heard commit ({@link #writes}), for the log itself to be checked against. A ledger covers
 * the partitions its process writes and reads (all of them, or its share with {@code --worker}).
 *
 * <p>The ranges are a {@link LedgerFile}, {@value #FILE} in the run's directory (beside the writers' files), never
 * held in the heap: a {@value #RECORD_BYTES}-byte record per read (kind, group, partition, from, to; one write per
 * read), after a first one that gives the ledger's groups and partitions, so a run's directory holds all a check
 * needs ({@link #read}). {@link #tallies} reads the file once and keeps, per group and partition, the ranges merged
 * so far ({@code Coverage}): as many as the holes, not the reads.
 */
public final class DeliveryLedger implements AutoCloseable {

    /** The readers' file in a run's directory. */
    public static final String FILE = "reads.ledger";

    static final int RECORD_BYTES = 25;
    private static final byte SHAPE = 0;
    private static final byte READ = 1;
    private static final byte MAYBE_READ = 2;

    /**
     * One group's partition at the end: lost, delivered twice, read by a transaction whose commit's outcome never
     * reached the reader (the connection broke during COMMIT; the next read starting past them says it did commit),
     * and how far the ranges reach.
     */
    public record Tally(int group, int partition, long lost, long duplicates, long uncertain, long reached) {
    }

    private final int groups;
    private final WorkerShare.Range partitions;
    private final WriterLedger writes;
    /** Where reads are written; null for a ledger read back from a run's directory. */
    private final LedgerFile reads;
    private final Path file;

    /** A ledger of partitions {@code 0..partitions-1}, in temporary files. */
    public DeliveryLedger(int groups, int partitions) {
        this(groups, new WorkerShare.Range(0, partitions), null);
    }

    /**
     * A new ledger of {@code partitions} in {@code dir}, a run's directory ({@value #FILE} and the writers' files,
     * replacing any there), or in temporary files when {@code dir} is null.
     */
    public DeliveryLedger(int groups, WorkerShare.Range partitions, Path dir) {
        this.groups = groups;
        this.partitions = partitions;
        this.reads = dir == null ? LedgerFile.temporary("reads", RECORD_BYTES)
                : LedgerFile.create(dir.resolve(FILE), RECORD_BYTES);
        this.file = reads.file();
        this.writes = WriterLedger.create(dir);
        ByteBuffer shape = ByteBuffer.allocate(RECORD_BYTES);
        shape.put(SHAPE).putInt(groups).putInt(partitions.from()).putLong(partitions.to()).position(RECORD_BYTES);
        reads.append(shape.flip());
    }

    private DeliveryLedger(Path dir, int groups, WorkerShare.Range partitions) {
        this.groups = groups;
        this.partitions = partitions;
        this.reads = null;
        this.file = dir.resolve(FILE);
        this.writes = WriterLedger.read(dir);
    }

    /**
     * The ledger a run left in {@code dir} (whole records; a last one cut short by a killed driver left out), to be
     * checked after the fact; null when the directory holds none.
     */
    public static DeliveryLedger read(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try (LedgerFile.Reader r = LedgerFile.open(file, RECORD_BYTES)) {
            ByteBuffer b = r.next();
            if (b == null || b.get(0) != SHAPE) {
                throw new IllegalStateException(file + " does not start with its groups and partitions");
            }
            return new DeliveryLedger(dir, b.getInt(1), new WorkerShare.Range(b.getInt(5), (int) b.getLong(9)));
        }
    }

    /** Group {@code group} read {@code from..to} of {@code partition}, and the commit's outcome never came back. */
    public void maybeRead(int group, int partition, long from, long to) {
        record(MAYBE_READ, group, partition, from, to);
    }

    /** Group {@code group} read offsets {@code from} (inclusive) to {@code to} (exclusive) of {@code partition}. */
    public void read(int group, int partition, long from, long to) {
        record(READ, group, partition, from, to);
    }

    private void record(byte kind, int group, int partition, long from, long to) {
        if (reads == null) {
            throw new IllegalStateException("a ledger read back from " + file + " takes no more reads");
        }
        if (group < 0 || group >= groups || partition < partitions.from() || partition >= partitions.to()) {
            throw new IllegalArgumentException("group " + group + " partition " + partition + " is not this "
                    + "ledger's");
        }
        ByteBuffer b = ByteBuffer.allocate(RECORD_BYTES);
        b.put(kind).putInt(group).putInt(partition).putLong(from).putLong(to).flip();
        reads.append(b);
    }

    /** What this process's writers heard commit (and the batches whose commit's outcome they never heard). */
    public WriterLedger writes() {
        return writes;
    }

    public int groups() {
        return groups;
    }

    /** The partitions this ledger covers. */
    public WorkerShare.Range partitions() {
        return partitions;
    }

    /** The readers' file. */
    public Path file() {
        return file;
    }

    /** Every group's partitions, group by group, from one read of the file. */
    public List<Tally> tallies() {
        Coverage[][] covered = new Coverage[groups][partitions.size()];
        for (Coverage[] group : covered) {
            for (int p = 0; p < group.length; p++) {
                group[p] = new Coverage();
            }
        }
        LedgerFile.forEach(file, RECORD_BYTES, b -> {
            byte kind = b.get(0);
            if (kind == SHAPE) {
                return;
            }
            Coverage c = covered[b.getInt(1)][b.getInt(5) - partitions.from()];
            if (kind == READ) {
                c.read(b.getLong(9), b.getLong(17));
            } else {
                c.maybeRead(b.getLong(9), b.getLong(17));
            }
        });
        List<Tally> all = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            for (int p = partitions.from(); p < partitions.to(); p++) {
                all.add(covered[g][p - partitions.from()].tally(g, p));
            }
        }
        return all;
    }

    @Override
    public void close() {
        if (reads != null) {
            reads.close();
        }
        writes.close();
    }
}
