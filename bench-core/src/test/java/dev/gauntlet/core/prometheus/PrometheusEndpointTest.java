package dev.gauntlet.core.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** What Prometheus scrapes is what the intervals held: counts, failures by class, latency buckets, the phase. */
class PrometheusEndpointTest {

    static String scrape(int port) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The value of the one series of {@code name} whose labels include all of {@code labels}. */
    static double value(String scraped, String name, String... labels) {
        Double found = null;
        for (String line : scraped.lines().toList()) {
            if (!line.startsWith(name + "{")) {
                continue;
            }
            String labelPart = line.substring(name.length() + 1, line.lastIndexOf('}'));
            boolean all = true;
            for (String l : labels) {
                all &= labelPart.contains(l);
            }
            if (all) {
                if (found != null) {
                    throw new AssertionError("several series of " + name + " match " + String.join(",", labels));
                }
                found = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        if (found == null) {
            throw new AssertionError("no " + name + " with " + String.join(",", labels) + " in\n" + scraped);
        }
        return found;
    }

    static Interval interval(String phase, long... latenciesMillis) {
        Histogram h = new Histogram(3);
        for (long ms : latenciesMillis) {
            h.recordValue(ms * 1_000_000);
        }
        return new Interval(1, 1, phase, Map.of("newOrder", IntervalOperation.of(h, 1, 0, 2, Map.of())), 1, 2,
                Map.of(), Map.of("lagMillis", 42L), Map.of("connection", 1L, "retried", 2L, Interval.REOPENED, 1L));
    }

    @Test
    void servesWhatTheIntervalsHeldPerPhase() throws Exception {
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start("tpcc", "1/4", 0)) {
            endpoint.onPhaseStart("baseline", 0);
            endpoint.onInterval(interval("baseline", 1, 3, 3, 40), Map.of(), 1);
            endpoint.onPhaseStart("disk-stalls", 1);
            endpoint.onInterval(interval("disk-stalls", 7000), Map.of(), 1);
            String s = scrape(endpoint.port());
            String[] base = {"workload=\"tpcc\"", "worker=\"1/4\"", "phase=\"baseline\"", "operation=\"newOrder\""};
            assertEquals(4, value(s, "gauntlet_operations_total", base));
            assertEquals(2, value(s, "gauntlet_retries_total", base));
            assertEquals(1, value(s, "gauntlet_operation_latency_seconds_bucket", concat(base, "le=\"0.001\"")));
            assertEquals(3, value(s, "gauntlet_operation_latency_seconds_bucket", concat(base, "le=\"0.005\"")));
            assertEquals(4, value(s, "gauntlet_operation_latency_seconds_bucket", concat(base, "le=\"0.05\"")));
            assertEquals(4, value(s, "gauntlet_operation_latency_seconds_count", base));
            assertEquals(1, value(s, "gauntlet_operations_total", "phase=\"disk-stalls\"", "operation=\"newOrder\""));
            assertEquals(0, value(s, "gauntlet_operation_latency_seconds_bucket", "phase=\"disk-stalls\"",
                    "le=\"5.0\""));
            assertEquals(1, value(s, "gauntlet_operation_latency_seconds_bucket", "phase=\"disk-stalls\"",
                    "le=\"10.0\""));
            // Failures by class; retried attempts and re-opened sessions are not errors.
            assertEquals(1, value(s, "gauntlet_errors_total", "phase=\"baseline\"", "class=\"connection\""));
            assertTrue(!s.contains("class=\"retried\"") && !s.contains("class=\"reopened\""), s);
            assertEquals(0, value(s, "gauntlet_phase", "phase=\"baseline\""));
            assertEquals(1, value(s, "gauntlet_phase", "phase=\"disk-stalls\""));
            assertEquals(42, value(s, "gauntlet_gauge", "name=\"lagMillis\""));
        }
    }

    @Test
    void aPortInUseIsOneClearError() {
        try (PrometheusEndpoint first = PrometheusEndpoint.start("tpcc", "0/1", 0)) {
            UncheckedIOException e = assertThrows(UncheckedIOException.class,
                    () -> PrometheusEndpoint.start("tpcc", "0/1", first.port()));
            assertTrue(e.getMessage().startsWith("cannot serve Prometheus metrics on port " + first.port()),
                    e.getMessage());
        }
    }

    private static String[] concat(String[] a, String b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + 1);
        all[a.length] = b;
        return all;
    }
}
