package dev.gauntlet.script.lang;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The distributions against the real pgbench 15's 100,000 draws of each (conformance/histograms.tsv, from
 * run-pgbench.sh, {@code --random-seed=77}): drawn here with the same seed they give the same histogram, value for
 * value; drawn with another seed (78) they pass two-sample tests against pgbench's at the 0.001 level:
 * <ul>
 *   <li>chi-square homogeneity over the values 1..1000, adjacent values pooled until each cell expects at least 10
 *       draws per sample; the statistic's Wilson-Hilferty normal score must stay under 3.09 (p &gt; 0.001);</li>
 *   <li>Kolmogorov-Smirnov: the largest gap between the two empirical distribution functions must stay under
 *       1.95 * sqrt((n + m) / (n m)) (the asymptotic critical value at 0.001; conservative for discrete values).</li>
 * </ul>
 * Both seeds are fixed, so the test is deterministic.
 */
class ExpressionDistributionTest {

    private static final int VALUES = 1000;
    private static final double CHI_SQUARE_Z_LIMIT = 3.09;
    private static final double KS_COEFFICIENT = 1.95;
    private static final double MIN_EXPECTED = 10;

    static Stream<Arguments> rows() {
        return ConformanceData.read("histograms.tsv").stream().map(row -> Arguments.of(row.field(1), row));
    }

    @ParameterizedTest(name = "{0}, same seed: same histogram")
    @MethodSource("rows")
    void sameSeedSameHistogram(String name, ConformanceData.Row row) throws Exception {
        long seed = Long.parseLong(row.field(2));
        int draws = Integer.parseInt(row.field(3));
        assertArrayEquals(ConformanceData.longs(row.field(4)), histogram(row.field(1), seed, draws), name);
    }

    @ParameterizedTest(name = "{0}, another seed: same distribution")
    @MethodSource("rows")
    void anotherSeedSameDistribution(String name, ConformanceData.Row row) throws Exception {
        long seed = Long.parseLong(row.field(2)) + 1;
        int draws = Integer.parseInt(row.field(3));
        long[] pgbench = ConformanceData.longs(row.field(4));
        long[] java = histogram(row.field(1), seed, draws);
        double z = chiSquareScore(pgbench, java);
        assertTrue(z < CHI_SQUARE_Z_LIMIT, name + ": chi-square normal score " + z);
        double gap = ksStatistic(pgbench, java);
        double limit = KS_COEFFICIENT * Math.sqrt(2.0 / draws);
        System.out.printf("%s: chi-square z %.3f (limit %.2f), KS D %.5f (limit %.5f)%n", name, z,
                CHI_SQUARE_Z_LIMIT, gap, limit);
        assertTrue(gap < limit, name + ": Kolmogorov-Smirnov D " + gap + " >= " + limit);
    }

    private static long[] histogram(String function, long seed, int draws) throws Exception {
        PgbenchSeeds seeds = PgbenchSeeds.derive(seed, 1, 1, false);
        ClientEvaluation client = new ClientEvaluation(seeds.clientRandom(0));
        Expression expression = ExpressionParser.parse(function);
        long[] counts = new long[VALUES];
        for (int i = 0; i < draws; i++) {
            counts[(int) expression.evaluate(client).asInt() - 1]++;
        }
        return counts;
    }

    /** Wilson-Hilferty normal score of the two-sample chi-square statistic over pooled cells. */
    private static double chiSquareScore(long[] a, long[] b) {
        long totalA = 0;
        long totalB = 0;
        for (int i = 0; i < VALUES; i++) {
            totalA += a[i];
            totalB += b[i];
        }
        List<long[]> cells = new ArrayList<>();
        long cellA = 0;
        long cellB = 0;
        for (int i = 0; i < VALUES; i++) {
            cellA += a[i];
            cellB += b[i];
            if ((cellA + cellB) / 2.0 >= MIN_EXPECTED) {
                cells.add(new long[] {cellA, cellB});
                cellA = 0;
                cellB = 0;
            }
        }
        if (cellA + cellB > 0) {
            long[] last = cells.get(cells.size() - 1);
            last[0] += cellA;
            last[1] += cellB;
        }
        double statistic = 0;
        double total = totalA + totalB;
        for (long[] cell : cells) {
            double pooled = cell[0] + cell[1];
            double expectedA = pooled * totalA / total;
            double expectedB = pooled * totalB / total;
            statistic += (cell[0] - expectedA) * (cell[0] - expectedA) / expectedA
                    + (cell[1] - expectedB) * (cell[1] - expectedB) / expectedB;
        }
        int freedom = cells.size() - 1;
        double ratio = Math.cbrt(statistic / freedom);
        double mean = 1 - 2.0 / (9 * freedom);
        return (ratio - mean) / Math.sqrt(2.0 / (9 * freedom));
    }

    private static double ksStatistic(long[] a, long[] b) {
        double totalA = 0;
        double totalB = 0;
        for (int i = 0; i < VALUES; i++) {
            totalA += a[i];
            totalB += b[i];
        }
        double cumulativeA = 0;
        double cumulativeB = 0;
        double gap = 0;
        for (int i = 0; i < VALUES; i++) {
            cumulativeA += a[i];
            cumulativeB += b[i];
            gap = Math.max(gap, Math.abs(cumulativeA / totalA - cumulativeB / totalB));
        }
        return gap;
    }
}
