import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gauntlet.core.result.*;
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;
import org.HdrHistogram.Histogram;

/**
 * Rebuilds an approximate 1 s timeline.jsonl.gz for a stored run directory from its dashboard.html (per interval:
 * each operation's rate and p90/p95/p99), since the run's own timeline file was not committed. Counts are exact
 * (rate x seconds); each interval's histogram has its p90, p95 and p99 at the dashboard's values.
 */
public class Rebuild {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String html = Files.readString(dir.resolve("dashboard.html"));
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"run-data\">(.*?)</script>", Pattern.DOTALL)
                .matcher(html);
        if (!m.find()) throw new IllegalStateException("no run-data");
        JsonNode data = new ObjectMapper().readTree(m.group(1));
        JsonNode x = data.get("x");
        Map<String, JsonNode> rate = new LinkedHashMap<>();
        Map<String, JsonNode> lat = new HashMap<>();
        for (JsonNode c : data.get("charts")) {
            for (JsonNode s : c.get("series")) {
                String label = s.get("label").asText();
                if (c.get("id").asText().equals("throughput") && !"right".equals(s.path("scale").asText())) {
                    rate.put(label, s.get("values"));
                } else if (c.get("id").asText().equals("latency")) {
                    lat.put(label, s.get("values"));
                }
            }
        }
        List<String[]> phases = new ArrayList<>();
        for (JsonNode p : data.get("phases")) {
            phases.add(new String[] {p.get("name").asText(), p.get("start").asText(), p.get("end").asText()});
        }
        int n = 0;
        try (TimelineFile.Writer w = TimelineFile.create(dir.resolve(TimelineFile.NAME))) {
            double prev = 0;
            for (int i = 0; i < x.size(); i++) {
                double t = x.get(i).asDouble();
                double seconds = t - prev;
                prev = t;
                double mid = t - seconds / 2;
                String phase = null;
                for (String[] p : phases) {
                    if (mid >= Double.parseDouble(p[1]) && mid < Double.parseDouble(p[2])) phase = p[0];
                }
                Map<String, IntervalOperation> ops = new LinkedHashMap<>();
                for (Map.Entry<String, JsonNode> e : rate.entrySet()) {
                    JsonNode v = e.getValue().get(i);
                    long count = v == null || v.isNull() ? 0 : Math.round(v.asDouble() * seconds);
                    Histogram h = new Histogram(3);
                    if (count > 0) {
                        double p90 = ms(lat, e.getKey() + " p90", i);
                        double p95 = ms(lat, e.getKey() + " p95", i);
                        double p99 = ms(lat, e.getKey() + " p99", i);
                        long a = (long) Math.floor(0.90 * count);
                        long b = (long) Math.ceil(0.95 * count) - a;
                        long c = count - a - b;
                        if (a > 0) h.recordValueWithCount(ns(p90), a);
                        if (b > 0) h.recordValueWithCount(ns(p95), b);
                        if (c > 0) h.recordValueWithCount(ns(p99), c);
                    }
                    ops.put(e.getKey(), IntervalOperation.of(h, seconds, 0, 0, Map.of()));
                }
                w.append(new Interval(t, seconds, phase, ops, 0, 0, Map.of(), Map.of(), Map.of()));
                n++;
            }
        }
        System.out.println(dir + ": " + n + " intervals rebuilt");
    }

    private static double ms(Map<String, JsonNode> lat, String label, int i) {
        JsonNode s = lat.get(label);
        JsonNode v = s == null ? null : s.get(i);
        return v == null || v.isNull() ? 1.0 : v.asDouble();
    }

    private static long ns(double ms) {
        return Math.max(1, Math.round(ms * 1e6));
    }
}
