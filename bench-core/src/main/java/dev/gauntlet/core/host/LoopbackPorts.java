package dev.gauntlet.core.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** TCP ports on this machine's loopback address, for the servers and proxies Gauntlet starts itself. */
public final class LoopbackPorts {

    private LoopbackPorts() {
    }

    /** A port no one listens on now (the system picks it); another process may take it before it is used. */
    public static int free() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("could not find a free TCP port on localhost: " + e, e);
        }
    }

    /** Whether {@code port} can be listened on now. */
    public static boolean isFree(int port) {
        try {
            new ServerSocket(port, 1, InetAddress.getLoopbackAddress()).close();
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
