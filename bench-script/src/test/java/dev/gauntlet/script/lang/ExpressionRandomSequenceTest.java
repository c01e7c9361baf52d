package dev.gauntlet.script.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The random functions draw here what they drew in the real pgbench 15 (conformance/sequences.tsv, from
 * run-pgbench.sh): every client of {@code -c 1 -j 1}, {@code -c 4 -j 1}, {@code -c 4 -j 2} and {@code -c 3 -j 2}
 * with {@code --random-seed=2024}, 2000 values of each function in a row, compared value by value where the file
 * keeps them all (client 0 of -c 1, whose state is every configuration's client 0, and client 3 of -c 4 -j 1) and by the SHA-256 of all of them plus their
 * first 20 elsewhere; and {@code permute(i, 1000)} for i in 0..999 with {@code :default_seed} and with a seed.
 * Also each thread's states: the scripts chosen by weight and the transactions sampled into the log.
 */
class ExpressionRandomSequenceTest {

    static final long SEED = 2024;

    /** The functions of run-pgbench.sh's FUNCTIONS. */
    private static final Map<String, String> FUNCTIONS = Map.of(
            "uniform", "random(1, 1000000000)",
            "exponential", "random_exponential(1, 1000, 2.5)",
            "gaussian", "random_gaussian(1, 1000, 4)",
            "zipfian1.07", "random_zipfian(1, 1000, 1.07)",
            "zipfian1.5", "random_zipfian(1, 1000, 1.5)",
            "permute-default", "permute(:i, 1000)",
            "permute-seeded", "permute(:i, 1000, 20240229)");

    static Stream<Arguments> rows() {
        return ConformanceData.read("sequences.tsv").stream()
                .map(row -> Arguments.of(row.field(0) + " client " + row.field(1), row));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void drawsAsPgbench(String name, ConformanceData.Row row) throws Exception {
        String[] tag = row.field(0).split("\\|");
        int clients = Integer.parseInt(tag[0].substring(1, tag[0].indexOf('j')));
        int threads = Integer.parseInt(tag[0].substring(tag[0].indexOf('j') + 1));
        int client = Integer.parseInt(row.field(1));
        int count = Integer.parseInt(row.field(2));
        PgbenchSeeds seeds = PgbenchSeeds.derive(SEED, clients, threads, false);
        ClientEvaluation evaluation = new ClientEvaluation(seeds.clientRandom(client));
        evaluation.set("default_seed", Value.ofInt(seeds.defaultSeed().orElseThrow()));
        evaluation.set("client_id", Value.ofInt(client));
        Expression expression = ExpressionParser.parse(FUNCTIONS.get(tag[1]));
        long[] drawn = new long[count];
        for (int i = 0; i < count; i++) {
            evaluation.set("i", Value.ofInt(i));
            drawn[i] = expression.evaluate(evaluation).asInt();
        }
        long[] kept = ConformanceData.longs(row.field(4));
        for (int i = 0; i < kept.length; i++) {
            if (kept[i] != drawn[i]) {
                fail(name + ": value " + i + " is " + drawn[i] + ", pgbench drew " + kept[i]);
            }
        }
        StringJoiner csv = new StringJoiner(",");
        for (long value : drawn) {
            csv.add(Long.toString(value));
        }
        assertEquals(row.field(3), sha256(csv.toString()), name + ": the digest of all " + count + " values");
    }

    @Test
    void permuteIsABijection() throws Exception {
        for (ConformanceData.Row row : ConformanceData.read("sequences.tsv")) {
            if (row.field(0).contains("permute")) {
                long[] values = ConformanceData.longs(row.field(4));
                assertEquals(1000, values.length);
                assertEquals(1000, java.util.Arrays.stream(values).distinct().filter(v -> v >= 0 && v < 1000)
                        .count(), row.field(0));
            }
        }
    }

    /** pgbench -c 2 -j 2 -f w0@2 -f w1@1 -f w2@5: each thread chooses its client's scripts from its own state. */
    @Test
    void choosesScriptsAsPgbench() {
        PgbenchSeeds seeds = PgbenchSeeds.derive(SEED, 2, 2, false);
        int rows = 0;
        for (ConformanceData.Row row : ConformanceData.read("thread-states.tsv")) {
            if (!row.field(0).equals("choose")) {
                continue;
            }
            int client = Integer.parseInt(row.field(1));
            long[] weights = ConformanceData.longs(row.field(2));
            long total = java.util.Arrays.stream(weights).sum();
            PgbenchRandom choose = seeds.chooseRandom(seeds.threadOf(client));
            StringBuilder chosen = new StringBuilder();
            for (int transaction = 0; transaction < row.field(3).length(); transaction++) {
                long w = choose.nextLong(0, total - 1);
                int script = 0;
                do {
                    w -= weights[script++];
                } while (w >= 0);
                chosen.append(script - 1);
            }
            assertEquals(row.field(3), chosen.toString(), "scripts chosen for client " + client);
            rows++;
        }
        assertEquals(2, rows);
    }

    /** pgbench -c 2 -j 2 -l --sampling-rate=0.3: a thread logs a transaction unless its draw exceeds the rate. */
    @Test
    void samplesTheLogAsPgbench() {
        PgbenchSeeds seeds = PgbenchSeeds.derive(SEED, 2, 2, false);
        int rows = 0;
        for (ConformanceData.Row row : ConformanceData.read("thread-states.tsv")) {
            if (!row.field(0).equals("sample")) {
                continue;
            }
            int client = Integer.parseInt(row.field(1));
            double rate = Double.parseDouble(row.field(2));
            PgbenchRandom sample = seeds.sampleRandom(seeds.threadOf(client));
            List<Long> logged = new ArrayList<>();
            for (long transaction = 1; transaction <= 300; transaction++) { // the log numbers them from 1
                if (!(sample.nextDouble() > rate)) {
                    logged.add(transaction);
                }
            }
            StringJoiner expected = new StringJoiner(",");
            logged.forEach(t -> expected.add(Long.toString(t)));
            assertEquals(row.field(3), expected.toString(), "transactions logged by client " + client);
            rows++;
        }
        assertEquals(2, rows);
    }

    @Test
    void coversTheConfigurations() {
        List<ConformanceData.Row> rows = ConformanceData.read("sequences.tsv");
        for (String config : List.of("c1j1", "c4j1", "c4j2", "c3j2")) {
            assertTrue(rows.stream().anyMatch(r -> r.field(0).startsWith(config + "|")), config);
        }
        assertTrue(rows.size() >= 60, rows.size() + " sequences");
    }

    private static String sha256(String text) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(
                StandardCharsets.UTF_8)));
    }
}
