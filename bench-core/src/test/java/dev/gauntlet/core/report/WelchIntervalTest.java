package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gauntlet.core.report.Delta.Outcome;
import dev.gauntlet.core.report.Delta.Unit;
import dev.gauntlet.core.result.MetricInfo.Better;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import org.apache.commons.statistics.distribution.TDistribution;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Student's t quantiles (Apache Commons Statistics') against the published tables, and Welch intervals with the
 * verdicts they lead to, unchanged from the hand-written continued fraction the library replaced.
 */
class WelchIntervalTest {

    private static final double[] P = {0.9, 0.95, 0.975, 0.99, 0.995, 0.9995};

    /**
     * One-sided quantiles t(p, df) to 4 significant digits, from the published tables for whole df. Tables have no
     * fractional df (Welch's usually are): 4.7 and 17.3 are from the regularized incomplete beta function in
     * 30-digit arithmetic (mpmath), as is the large-sample row, which is the normal quantiles'.
     */
    @ParameterizedTest(name = "df {0}")
    @CsvSource(delimiter = '|', textBlock = """
            1       | 3.078 | 6.314 | 12.71 | 31.82 | 63.66 | 636.6
            2       | 1.886 | 2.920 | 4.303 | 6.965 | 9.925 | 31.60
            3       | 1.638 | 2.353 | 3.182 | 4.541 | 5.841 | 12.92
            4       | 1.533 | 2.132 | 2.776 | 3.747 | 4.604 | 8.610
            4.7     | 1.490 | 2.044 | 2.621 | 3.457 | 4.168 | 7.267
            5       | 1.476 | 2.015 | 2.571 | 3.365 | 4.032 | 6.869
            10      | 1.372 | 1.812 | 2.228 | 2.764 | 3.169 | 4.587
            17.3    | 1.332 | 1.738 | 2.107 | 2.562 | 2.892 | 3.951
            30      | 1.310 | 1.697 | 2.042 | 2.457 | 2.750 | 3.646
            100     | 1.290 | 1.660 | 1.984 | 2.364 | 2.626 | 3.390
            1000    | 1.282 | 1.646 | 1.962 | 2.330 | 2.581 | 3.300
            1000000 | 1.282 | 1.645 | 1.960 | 2.326 | 2.576 | 3.291
            """)
    void studentQuantilesMatchThePublishedTables(double df, String t90, String t95, String t975, String t99,
                                                 String t995, String t9995) {
        String[] table = {t90, t95, t975, t99, t995, t9995};
        for (int i = 0; i < P.length; i++) {
            BigDecimal t = new BigDecimal(quantile(P[i], df)).round(new MathContext(4));
            assertEquals(0, t.compareTo(new BigDecimal(table[i])), "t(" + P[i] + ", " + df + ") = " + t);
        }
    }

    /**
     * Per-run throughput of two sides (ops/s, space-separated), the 95% interval of the difference, the verdict at a
     * 5% threshold and the runs per side that would decide it (inconclusive or not), recorded from the t quantiles
     * of the hand-written continued fraction; the library's give them all unchanged.
     */
    @ParameterizedTest(name = "{0} vs {1}")
    @CsvSource(delimiter = '|', textBlock = """
        1037.52 1006.11 1007.64 | 1150.64 1130.41 1296.57 | -39.1266936495 | 390.026693650 | INCONCLUSIVE    | ~4
        1000 1010 990           | 1120 1130 1110          | 97.3304206447  | 142.669579355 | OTHER_BETTER    | ~2
        1000 1010 990           | 1040 1050 1030          | 17.3304206447  | 62.6695793553 | BELOW_THRESHOLD | ~9
        100 101 99 100.5        | 101 102 100             | -1.12063647424 | 2.87063647424 | EQUAL           | ~2
        100 110                 | 104 120                 | -42.0566421527 | 56.0566421527 | INCONCLUSIVE    | ~16
        500 520 480 510 490 505 | 530 470 560             | -87.9355444576 | 126.268877791 | INCONCLUSIVE    | ~259
        100 100 100             | 101 103 105             | -1.96827542350 | 7.96827542350 | INCONCLUSIVE    | ~7
        200 203 198 201 197 204 | 212 215 209 214 210 213 | 8.39159810588  | 14.9417352275 | OTHER_BETTER    | ~2
        100 200 0               | 105 205 5               | -221.695793553 | 231.695793553 | INCONCLUSIVE    | more than 1,000
        1000 1100 900           | 1040 1140 940           | -186.695793553 | 266.695793553 | INCONCLUSIVE    | ~770
        """)
    void intervalsAndVerdicts(String a, String b, double low, double high, Outcome outcome, String runsPerSide) {
        Delta d = delta(a, b);
        WelchInterval i = WelchInterval.of(d.samplesA(), d.samplesB()).orElseThrow();
        assertEquals(low, i.low(), 1e-9 * Math.abs(low));
        assertEquals(high, i.high(), 1e-9 * Math.abs(high));
        assertEquals(outcome, d.outcome(5));
        assertEquals(runsPerSide + " runs per side", d.runsToDecide(5).orElseThrow().text());
    }

    private static Delta delta(String a, String b) {
        double[] sa = Arrays.stream(a.split(" ")).mapToDouble(Double::parseDouble).toArray();
        double[] sb = Arrays.stream(b.split(" ")).mapToDouble(Double::parseDouble).toArray();
        return new Delta("Throughput", Unit.OPS_PER_SECOND, Better.HIGHER, mean(sa), mean(sb), sa, sb);
    }

    private static double mean(double[] v) {
        return Arrays.stream(v).average().orElseThrow();
    }

    private static double quantile(double p, double df) {
        return TDistribution.of(df).inverseCumulativeProbability(p);
    }
}
