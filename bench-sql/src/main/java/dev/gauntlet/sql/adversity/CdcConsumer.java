package dev.gauntlet.sql.adversity;

import dev.gauntlet.sql.ConnectionSettings;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.PGProperty;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;

/**
 * Change data capture for the disruption's length: a logical replication slot ({@code test_decoding}, or
 * {@code pgoutput} with a publication of all tables) read through pgjdbc's replication API, each change acknowledged
 * as read so the server can recycle WAL, as a CDC pipeline would. The slot (and publication) are dropped after.
 */
final class CdcConsumer extends SystemDisruption {

    private static final String SLOT = "gauntlet_cdc";
    private static final String PUBLICATION = "gauntlet_cdc";

    private final String plugin;
    private volatile boolean on;
    private volatile Thread reader;
    private volatile Connection replication;
    private long messages;
    private long bytes;
    private volatile String failure;

    CdcConsumer(String name, SystemUnderTest system, String plugin) {
        super(name, system);
        this.plugin = plugin;
    }

    @Override
    public void start(Log log) throws Exception {
        ConnectionSettings settings = system.adminSettings();
        try (Connection c = system.admin(); Statement s = c.createStatement()) {
            s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '"
                    + SLOT + "' AND NOT active");
            if (plugin.equals("pgoutput")) {
                s.execute("DROP PUBLICATION IF EXISTS " + PUBLICATION);
                s.execute("CREATE PUBLICATION " + PUBLICATION + " FOR ALL TABLES");
            }
        }
        Properties p = settings.properties(ConnectionSettings.ADMIN_SOCKET_TIMEOUT);
        p.remove("socketFactory");
        PGProperty.REPLICATION.set(p, "database");
        PGProperty.ASSUME_MIN_SERVER_VERSION.set(p, "10");
        PGProperty.PREFER_QUERY_MODE.set(p, "simple");
        Connection conn = DriverManager.getConnection(settings.url(), p);
        replication = conn;
        PGConnection pg = conn.unwrap(PGConnection.class);
        pg.getReplicationAPI().createReplicationSlot().logical().withSlotName(SLOT).withOutputPlugin(plugin).make();
        var builder = pg.getReplicationAPI().replicationStream().logical().withSlotName(SLOT)
                .withStatusInterval(1, TimeUnit.SECONDS);
        if (plugin.equals("pgoutput")) {
            builder = builder.withSlotOption("proto_version", "1").withSlotOption("publication_names", PUBLICATION);
        } else {
            builder = builder.withSlotOption("include-xids", false);
        }
        PGReplicationStream stream = builder.start();
        log.note("slot " + SLOT + " (" + plugin + ") created and read from");
        on = true;
        Thread t = new Thread(() -> read(stream), "gauntlet-" + name);
        t.setDaemon(true);
        reader = t;
        t.start();
    }

    private void read(PGReplicationStream stream) {
        try {
            while (on) {
                ByteBuffer message = stream.readPending();
                if (message == null) {
                    Thread.sleep(5);
                    continue;
                }
                messages++;
                bytes += message.remaining();
                LogSequenceNumber lsn = stream.getLastReceiveLSN();
                stream.setAppliedLSN(lsn);
                stream.setFlushedLSN(lsn);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (on) {
                failure = e.getMessage();
            }
        }
    }

    @Override
    public void stop(Log log) throws Exception {
        on = false;
        Thread t = reader;
        if (t != null) {
            t.join(Duration.ofSeconds(10).toMillis());
        }
        Connection c = replication;
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // a broken replication connection is closed either way
            }
        }
        log.note(String.format(Locale.ROOT, "%,d changes (%,d KB) decoded and acknowledged", messages, bytes >> 10)
                + (failure == null ? "" : "; the stream broke: " + failure));
        try (Connection admin = system.admin(); Statement s = admin.createStatement()) {
            // The walsender may take a moment to let go of the slot after its connection closed.
            for (int i = 0; i < 50; i++) {
                try (var rs = s.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'")) {
                    if (!rs.next()) {
                        break;
                    }
                    if (!rs.getBoolean(1)) {
                        s.execute("SELECT pg_drop_replication_slot('" + SLOT + "')");
                        break;
                    }
                }
                Thread.sleep(100);
            }
            s.execute("DROP PUBLICATION IF EXISTS " + PUBLICATION);
        }
    }
}
