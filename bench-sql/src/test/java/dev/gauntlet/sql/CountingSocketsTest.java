package dev.gauntlet.sql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The session sockets' two savings, each watched failing without it: a session connected with pgjdbc's
 * {@code connectTimeout} keeps a blocking socket (one read a wait, not a read, a poll and a read), and a small read
 * takes the whole record the kernel has (one read a TLS record, not two); a startup that hangs still ends at its
 * limit.
 */
class CountingSocketsTest {

    private static final int O_NONBLOCK = 04000;

    @Test
    void aWatchedSessionConnectedWithATimeoutKeepsABlockingSocket() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fdinfo")), "needs Linux's /proc to read a socket's flags");
        SqlTestServer server = SqlTestServer.shared();
        try (Connection session = server.settings().connectWatched(); Statement s = session.createStatement()) {
            int port;
            try (ResultSet rs = s.executeQuery("SELECT inet_client_port()")) {
                rs.next();
                port = rs.getInt(1);
            }
            assumeTrue(port > 0, "the test server is reached over a Unix socket: no TCP port to look up");
            int flags = socketFlags(port);
            assertEquals(0, flags & O_NONBLOCK, "O_NONBLOCK on the session's socket: " + Integer.toOctalString(flags));
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aStartupThatOutlastsItsLimitFailsAndOneWithinItKeepsItsSocket() throws Exception {
        // A listener that never accepts, its queue filled: the kernel drops further SYNs, so a connect hangs.
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            List<Socket> queued = new ArrayList<>();
            try {
                for (int i = 0; i < 8; i++) {
                    Socket q = new Socket();
                    try {
                        q.connect(at, 200);
                        queued.add(q);
                    } catch (SocketTimeoutException full) {
                        q.close();
                        break;
                    }
                }
                Socket hanging = new CountingSockets().createSocket();
                try (CountingSockets.Startup startup = CountingSockets.startup(Duration.ofMillis(300))) {
                    // pgjdbc's connectTimeout, 10 s, is not what ends it: the startup's limit is
                    assertThrows(SocketException.class, () -> hanging.connect(at, 10_000));
                    assertTrue(startup.expired());
                }
                assertFalse(hanging.isConnected());
            } finally {
                for (Socket q : queued) {
                    q.close();
                }
            }
        }
    }

    @Test
    void aSmallReadTakesWhatTheKernelHasAndTheNextReadsAreServedFromIt() throws Exception {
        byte[] record = new byte[100];
        for (int i = 0; i < record.length; i++) {
            record[i] = (byte) i;
        }
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new CountingSockets().createSocket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
             Socket server = listener.accept()) {
            long trips = CountingSockets.roundTrips();
            OutputStream request = client.getOutputStream();
            request.write(1);
            request.flush();
            server.getInputStream().read();
            server.getOutputStream().write(record);
            server.getOutputStream().flush();

            InputStream in = client.getInputStream();
            byte[] header = in.readNBytes(5); // as JSSE reads a record's header
            // From here the socket gives nothing more (the JDK answers end of stream at once): what follows can only
            // come from what the header's read already took.
            client.shutdownInput();
            byte[] body = in.readNBytes(95);
            assertArrayEquals(Arrays.copyOfRange(record, 0, 5), header);
            assertArrayEquals(Arrays.copyOfRange(record, 5, 100), body, "the body read after the header's");
            assertEquals(-1, in.read());
            assertEquals(1, CountingSockets.roundTrips() - trips, "one request answered: one round trip");
        }
    }

    /** The flags of this process's TCP socket whose local port is {@code port}, from /proc. */
    private static int socketFlags(int port) throws Exception {
        String inode = null;
        for (String table : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                String local = f[1];
                if (Integer.parseInt(local.substring(local.indexOf(':') + 1), 16) == port) {
                    inode = f[9];
                }
            }
        }
        assumeTrue(inode != null, "port " + port + " not in /proc/self/net/tcp: the server may be elsewhere");
        String link = "socket:[" + inode + "]";
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    if (Files.readSymbolicLink(fd).toString().equals(link)) {
                        for (String line : Files.readAllLines(Path.of("/proc/self/fdinfo", fd.getFileName().toString()))) {
                            if (line.startsWith("flags:")) {
                                return Integer.parseInt(line.substring(6).trim(), 8);
                            }
                        }
                    }
                } catch (NoSuchFileException closedMeanwhile) {
                    // another thread's descriptor closed while listing
                }
            }
        }
        throw new AssertionError("no descriptor of this process is " + link);
    }
}
