package dev.gauntlet.tpcc;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.result.Redaction;
import dev.gauntlet.tpcc.schema.LoadLock;
import dev.gauntlet.tpcc.schema.LoadRecord;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The one line with which {@code run}, {@code check} and {@code init} refuse a partial load: where it is, what of it is
 * there, whether it was interrupted or is still under way ({@link LoadLock}), and what to do.
 */
final class PartialLoad {

    private PartialLoad() {
    }

    /** Throws the refusal when {@code load} (read on {@code c} from {@code url}; null: no tables) is partial. */
    static void refuse(Connection c, LoadRecord load, String url) throws SQLException {
        if (load != null && load.partial()) {
            throw refusal(load, LoadLock.held(c), url);
        }
    }

    /**
     * The refusal of a partial load, interrupted or ({@code underWay}) still being loaded ({@code load} may then be
     * null: the tables not there yet).
     */
    static BadInputException refusal(LoadRecord load, boolean underWay, String url) {
        String at = Redaction.url(url);
        if (underWay) {
            String state = load != null && load.partial() ? ": " + load.state() + " so far" : "";
            return new BadInputException("a load under way at " + at + state + "; wait for it to finish");
        }
        return new BadInputException("a partial load at " + at + ": " + load.state() + " (the load was interrupted); "
                + "run 'bench-tpcc init --resume' to finish it, or 'bench-tpcc init --drop' to start over");
    }
}
