package dev.gauntlet.sql.adversity;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gauntlet.core.host.Executables;
import dev.gauntlet.core.host.HostCommand;
import dev.gauntlet.core.host.LoopbackPorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A Toxiproxy server (Shopify's TCP fault proxy) that Gauntlet starts, put between the driver and each database
 * server, and driven through its HTTP API: toxics (latency, bandwidth, timeout = blackhole, reset_peer) added to a
 * share of the connections ({@code toxicity}) and removed again. Version 2.12.0 is the one tested.
 *
 * <p>The binary is found as {@code $TOXIPROXY_SERVER}, {@code toxiproxy-server} on the PATH, or where
 * {@code go install} puts it ({@code ~/go/bin/server}).
 */
public final class Toxiproxy implements AutoCloseable {

    /** How to get it, for the one-line error when it is missing. */
    public static final String INSTALL = "go install github.com/Shopify/toxiproxy/v2/cmd/server@v2.12.0 "
            + "&& cp ~/go/bin/server /usr/local/bin/toxiproxy-server";

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final int apiPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<String, Integer> listening = new LinkedHashMap<>();

    private Toxiproxy(Process process, int apiPort) {
        this.process = process;
        this.apiPort = apiPort;
    }

    /** The binary, if it is installed. */
    public static Optional<Path> find() {
        String env = System.getenv("TOXIPROXY_SERVER");
        if (env != null && !env.isBlank()) {
            Path p = Path.of(env);
            return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        Optional<Path> onPath = Executables.find("toxiproxy-server");
        if (onPath.isPresent()) {
            return onPath;
        }
        Path go = Path.of(System.getProperty("user.home"), "go", "bin", "server");
        return Files.isExecutable(go) && looksLikeToxiproxy(go) ? Optional.of(go) : Optional.empty();
    }

    private static boolean looksLikeToxiproxy(Path binary) {
        try {
            return HostCommand.of(binary.toString(), "-version").within(Duration.ofSeconds(5)).run().output()
                    .startsWith("toxiproxy-server");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Starts a server on a free localhost port; {@link IllegalStateException} when it is not installed. */
    public static Toxiproxy start() {
        Path binary = find().orElseThrow(() -> new IllegalStateException(
                "Toxiproxy is not installed (network disruptions need it): " + INSTALL));
        int port = LoopbackPorts.free();
        try {
            Process p = HostCommand.of(binary.toString(), "-host", "127.0.0.1", "-port", Integer.toString(port))
                    .start(ProcessBuilder.Redirect.DISCARD, null);
            Toxiproxy t = new Toxiproxy(p, port);
            Runtime.getRuntime().addShutdownHook(new Thread(p::destroy, "gauntlet-toxiproxy-stop"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (true) {
                try {
                    t.call("GET", "/version", null);
                    return t;
                } catch (IOException notYet) {
                    if (!p.isAlive() || System.nanoTime() > deadline) {
                        p.destroy();
                        throw new IllegalStateException("Toxiproxy (" + binary + ") did not answer on port " + port);
                    }
                    Thread.sleep(100);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot start Toxiproxy " + binary + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting Toxiproxy", e);
        }
    }

    /** A proxy to {@code upstreamPort} on localhost; returns the port it listens on. */
    public int proxy(String name, int upstreamPort) throws IOException {
        return proxy(name, "127.0.0.1", upstreamPort);
    }

    /** A proxy to {@code host:port}; returns the localhost port it listens on. */
    public synchronized int proxy(String name, String host, int upstreamPort) throws IOException {
        int port = LoopbackPorts.free();
        call("POST", "/proxies", Map.of("name", name, "listen", "127.0.0.1:" + port,
                "upstream", host + ":" + upstreamPort, "enabled", true));
        listening.put(name, port);
        return port;
    }

    /** The proxies' names, in creation order. */
    public synchronized List<String> proxies() {
        return new ArrayList<>(listening.keySet());
    }

    /**
     * Adds a toxic to a proxy: {@code type} (latency, bandwidth, timeout, reset_peer) on {@code stream} (upstream =
     * towards the server, downstream = towards the driver) for {@code share} of the connections.
     */
    public void addToxic(String proxy, String toxic, String type, String stream, double share,
                         Map<String, Object> attributes) throws IOException {
        call("POST", "/proxies/" + proxy + "/toxics", Map.of("name", toxic, "type", type, "stream", stream,
                "toxicity", share, "attributes", attributes));
    }

    public void removeToxic(String proxy, String toxic) throws IOException {
        call("DELETE", "/proxies/" + proxy + "/toxics/" + toxic, null);
    }

    /** Every toxic on every proxy removed and every proxy enabled: the network as it was. */
    public void reset() throws IOException {
        call("POST", "/reset", null);
    }

    private String call(String method, String path, Object body) throws IOException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + apiPort + path))
                .timeout(Duration.ofSeconds(10));
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() >= 300) {
                throw new IOException("Toxiproxy " + method + " " + path + ": HTTP " + r.statusCode() + " " + r.body());
            }
            return r.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted talking to Toxiproxy", e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
