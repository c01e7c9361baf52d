package dev.gauntlet.sql.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** Patroni's REST API on the lab's nodes (port 8008): the members as Patroni lists them, and requests to one node. */
final class PatroniRest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    /** The members as a node's Patroni sees them ({@code GET /cluster}), from the first of {@code addresses} to answer. */
    List<PatroniCluster.Member> members(Collection<String> addresses) {
        IllegalStateException failure = null;
        for (String address : addresses) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + address
                        + ":8008/cluster")).timeout(Duration.ofSeconds(2)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    continue;
                }
                List<PatroniCluster.Member> members = new ArrayList<>();
                for (JsonNode m : JSON.readTree(r.body()).path("members")) {
                    members.add(new PatroniCluster.Member(m.path("name").asText(), m.path("role").asText(),
                            m.path("state").asText(), m.path("host").asText(),
                            m.hasNonNull("timeline") ? m.get("timeline").asInt() : null,
                            m.hasNonNull("lag") && m.get("lag").isNumber() ? m.get("lag").asLong() : null));
                }
                members.sort(Comparator.comparing(PatroniCluster.Member::name));
                return members;
            } catch (IOException e) {
                failure = new IllegalStateException("Patroni's REST API on " + address + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        throw failure != null ? failure : new IllegalStateException("no Patroni REST API answered");
    }

    /** A request to the Patroni at {@code address} ({@code json} the body, or null): the status and body of its answer. */
    HttpResponse<String> call(String address, String method, String path, String json) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://" + address + ":8008" + path))
                    .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                    .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("Patroni's REST API on " + address + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
