package dev.gauntlet.rocksdb.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gauntlet.core.cli.BadInputException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The fill benchmarks' JMH results ({@code -rf json}) as a Markdown matrix: one row per variant, with the
 * single-shot fill time JMH measured and what follows from it per put (ops/s, micros/op, MB/s) and RocksDB's
 * WAL counters per put.
 */
public final class JmhMatrix {

    /** One benchmark variant's figures. */
    public record Row(String variant, long num, double fillMillis, double errorMillis, double opsPerSecond,
                      double microsPerOp, double mbPerSecond, double walBytesPerPut, double walSyncsPerPut,
                      long writeStalls, List<Double> iterationMillis) {
    }

    private JmhMatrix() {
    }

    public static List<Row> read(Path json) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(json.toFile());
        } catch (IOException e) {
            throw new BadInputException("cannot read JMH results " + json + ": " + e.getMessage());
        }
        if (root == null || !root.isArray()) {
            throw new BadInputException(json + " is not a JMH JSON result (expected an array; run JMH with -rf json)");
        }
        List<Row> rows = new ArrayList<>();
        for (JsonNode b : root) {
            if (!b.path("benchmark").asText().contains("FillBenchmark")) {
                continue;
            }
            JsonNode params = b.path("params");
            long num = params.path("num").asLong();
            JsonNode primary = b.path("primaryMetric");
            double millis = primary.path("score").asDouble() * toMillis(primary.path("scoreUnit").asText());
            double error = primary.path("scoreError").asDouble(Double.NaN) * toMillis(primary.path("scoreUnit").asText());
            List<Double> iterations = new ArrayList<>();
            for (JsonNode fork : primary.path("rawData")) {
                for (JsonNode v : fork) {
                    iterations.add(v.asDouble() * toMillis(primary.path("scoreUnit").asText()));
                }
            }
            JsonNode secondary = b.path("secondaryMetrics");
            double puts = sum(secondary.path("puts"));
            double seconds = millis / 1000;
            rows.add(new Row(variant(b.path("benchmark").asText(), params), num, millis, error, num / seconds,
                    millis * 1000 / num, num * (double) (FreshFill.KEY_SIZE + FreshFill.VALUE_SIZE) / 1048576 / seconds,
                    puts > 0 ? sum(secondary.path("walBytes")) / puts : Double.NaN,
                    puts > 0 ? sum(secondary.path("walSyncs")) / puts : Double.NaN,
                    (long) sum(secondary.path("writeStalls")), iterations));
        }
        return rows;
    }

    /** The sum over all measured iterations of an EVENTS counter. */
    private static double sum(JsonNode metric) {
        double s = 0;
        for (JsonNode fork : metric.path("rawData")) {
            for (JsonNode v : fork) {
                s += v.asDouble();
            }
        }
        return s;
    }

    private static double toMillis(String unit) {
        String u = unit.replace("/op", "");
        return switch (u) {
            case "s" -> 1000;
            case "ms" -> 1;
            case "us" -> 1e-3;
            case "ns" -> 1e-6;
            default -> throw new BadInputException("unexpected JMH score unit " + unit);
        };
    }

    static String variant(String benchmark, JsonNode params) {
        String order = params.path("benchmark").asText("?");
        if (benchmark.contains("SyncFillBenchmark") && !benchmark.contains("AsyncFillBenchmark")) {
            return order + " sync=true manual_wal_flush=" + params.path("manualWalFlush").asText();
        }
        return order + switch (params.path("wal").asText()) {
            case "wal" -> " sync=false manual_wal_flush=false";
            case "manual_wal_flush" -> " sync=false manual_wal_flush=true";
            case "disableWAL" -> " disableWAL";
            default -> " " + params.path("wal").asText();
        };
    }

    public static String markdown(List<Row> rows) {
        StringBuilder md = new StringBuilder();
        md.append("| variant | num | fill time, ms (± 99.9%) | ops/s | micros/op | MB/s | WAL bytes/op | WAL syncs/op | write stalls |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            md.append(String.format(Locale.ROOT, "| %s | %,d | %,.1f ± %,.1f | %,.0f | %.3f | %.1f | %.1f | %.4f | %d |%n",
                    r.variant(), r.num(), r.fillMillis(), r.errorMillis(), r.opsPerSecond(), r.microsPerOp(),
                    r.mbPerSecond(), r.walBytesPerPut(), r.walSyncsPerPut(), r.writeStalls()));
        }
        return md.toString();
    }

    /** Per-iteration fill times, to show the spread JMH's error summarizes. */
    public static String iterations(List<Row> rows) {
        StringBuilder md = new StringBuilder("| variant | fill time per iteration, ms |\n|---|---|\n");
        for (Row r : rows) {
            md.append("| ").append(r.variant()).append(" | ");
            md.append(String.join(" ", r.iterationMillis().stream()
                    .map(v -> String.format(Locale.ROOT, "%,.0f", v)).toList())).append(" |\n");
        }
        return md.toString();
    }

}
