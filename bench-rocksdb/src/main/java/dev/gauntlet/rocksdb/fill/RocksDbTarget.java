package dev.gauntlet.rocksdb.fill;

import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Failure;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.Target;
import org.rocksdb.RocksDBException;

/**
 * RocksDB as the runner's target: a session is a {@link WriteContext} a client keeps for the whole run; an
 * operation is one put (or one {@code FlushWAL}), with no transaction around it. Every RocksDB error is fatal:
 * a fill that cannot write has no honest way to go on. The store is closed by whoever created it.
 */
public final class RocksDbTarget implements Target<WriteContext> {

    private final RocksDbStore store;
    private final FillSettings settings;
    private final CompressibleValues values;

    public RocksDbTarget(RocksDbStore store, FillSettings settings, CompressibleValues values) {
        this.store = store;
        this.settings = settings;
        this.values = values;
    }

    @Override
    public WriteContext open() {
        return new WriteContext(store, settings, values);
    }

    @Override
    public void release(WriteContext session, boolean broken) {
        // Nothing native per session: its buffers are plain direct buffers, freed with the object.
    }

    @Override
    public boolean sessionPerTransaction() {
        return false;
    }

    @Override
    public void transact(WriteContext session, Operation<WriteContext> operation, Attempt attempt) throws Exception {
        operation.execute(session, attempt);
    }

    @Override
    public Failure classify(Throwable error) {
        if (error instanceof RocksDBException r && r.getStatus() != null) {
            return new Failure(Failure.Kind.FATAL, String.valueOf(r.getStatus().getCode()), String.valueOf(r.getMessage()));
        }
        return Failure.fatal(error);
    }

    @Override
    public void close() {
        // The store outlives the target: it is flushed, read and closed after the run.
    }
}
