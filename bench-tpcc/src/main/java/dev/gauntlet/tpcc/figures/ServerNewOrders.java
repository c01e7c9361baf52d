package dev.gauntlet.tpcc.figures;

import dev.gauntlet.core.run.PhaseProbe;
import dev.gauntlet.sql.ConnectionSettings;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * New-Orders counted on the server, as HammerDB does: the rise of {@code sum(d_next_o_id)} over the
 * measured phase. Rolled-back orders give their id back, so this counts committed ones only, and it counts
 * them even when a client lost its connection before hearing the commit.
 */
public final class ServerNewOrders implements PhaseProbe {

    /** The probe's name in each phase's {@code probes}. */
    static final String NAME = "serverNewOrders";

    private final ConnectionSettings settings;

    public ServerNewOrders(ConnectionSettings settings) {
        this.settings = settings;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Long read() {
        try (Connection c = settings.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT sum(d_next_o_id) FROM district")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            return null;
        }
    }
}
