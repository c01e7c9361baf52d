package dev.gauntlet.tpcc;

import dev.gauntlet.core.db.ConnectionSettings;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.run.RunListener;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * New-Orders counted on the server, as HammerDB does: the rise of {@code sum(d_next_o_id)} over the
 * measured phase. Rolled-back orders give their id back, so this counts committed ones only, and it counts
 * them even when a client lost its connection before hearing the commit. Read when the warm-up ends (or
 * before the run, without one) and when the measured phase ends.
 */
final class ServerNewOrders implements RunListener {

    private final ConnectionSettings settings;
    private Long atStart;
    private Long atEnd;

    ServerNewOrders(ConnectionSettings settings) {
        this.settings = settings;
    }

    /** Takes the starting figure now: call before a run that has no warm-up. */
    void startNow() {
        atStart = read();
    }

    @Override
    public void onInterval(Interval interval, Map<String, Long> cumulativeCounts, double phaseSeconds) {
    }

    @Override
    public void onPhaseEnd(Phase phase) {
        if (Phase.WARMUP.equals(phase.name())) {
            atStart = read();
        } else {
            atEnd = read();
        }
    }

    /** Committed New-Orders in the measured phase, or null when either reading failed (server unreachable). */
    Long delta() {
        return atStart == null || atEnd == null ? null : atEnd - atStart;
    }

    private Long read() {
        try (Connection c = settings.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT sum(d_next_o_id) FROM district")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            return null;
        }
    }
}
