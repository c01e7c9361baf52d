package dev.gauntlet.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.rocksdb.dbbench.DbBenchOutput;
import dev.gauntlet.rocksdb.dbbench.RepeatSummary;
import dev.gauntlet.rocksdb.dbbench.RunLine;
import java.util.List;
import org.junit.jupiter.api.Test;

/** db_bench's per-run and AVG/MEDIAN lines: our printer and parser agree with each other and with db_bench. */
class DbBenchFormatTest {

    /** Printed by db_bench 7.8.3 (Debian rocksdb-tools) for fillseq[X3] --num=200000 --manual_wal_flush=true. */
    private static final String DB_BENCH_OUTPUT = String.join("\n",
            "DB path: [/tmp/dbb/x]",
            "Running benchmark for 3 times",
            "fillseq      :       2.008 micros/op 497973 ops/sec 0.402 seconds 200000 operations;   55.1 MB/s",
            "... finished 100 ops                              \r... finished 200000 ops                              \r"
                    + "fillseq      :       3.634 micros/op 275153 ops/sec 0.727 seconds 200000 operations;   30.4 MB/s",
            "... finished 200000 ops                              \rfillseq [AVG 2 runs] : 386563 (\u00b1 218359) ops/sec;   42.8 (\u00b1 24.2) MB/sec",
            "fillseq      :       2.343 micros/op 426703 ops/sec 0.469 seconds 200000 operations;   47.2 MB/s",
            "fillseq [AVG 3 runs] : 399943 (\u00b1 128768) ops/sec;   44.2 (\u00b1 14.2) MB/sec",
            "fillseq [AVG    3 runs] : 399943 (\u00b1 128768) ops/sec;   44.2 (\u00b1 14.2) MB/sec",
            "fillseq [MEDIAN 3 runs] : 426703 ops/sec;   47.2 MB/sec",
            "");

    @Test
    void parsesDbBenchsOwnOutput() {
        DbBenchOutput out = DbBenchOutput.parse(DB_BENCH_OUTPUT);
        assertEquals(3, out.runs().size());
        RunLine first = out.runs().get(0);
        assertEquals(new RunLine("fillseq", 2.008, 497973, 0.402, 200000, 55.1), first);
        assertEquals(275153, out.runs().get(1).opsPerSecond());
        RepeatSummary s = out.summary().orElseThrow();
        assertEquals(3, s.runs());
        assertEquals(399943, s.meanOps());
        assertEquals(128768, s.ci95Ops());
        assertEquals(426703, s.medianOps());
        assertEquals(47.2, s.medianMb());
    }

    @Test
    void printsWhatDbBenchPrints() {
        DbBenchOutput out = DbBenchOutput.parse(DB_BENCH_OUTPUT);
        assertEquals("fillseq      :       2.008 micros/op 497973 ops/sec 0.402 seconds 200000 operations;   55.1 MB/s",
                out.runs().get(0).format());
        // Our summary of db_bench's three runs matches the one db_bench printed.
        RepeatSummary ours = RepeatSummary.of(out.runs());
        // MB/s: db_bench averages unrounded rates, we can only read the printed ones, so its CI may differ by 0.1.
        assertTrue(ours.formatAverage().startsWith("fillseq [AVG    3 runs] : 399943 (\u00b1 128768) ops/sec;   44.2 (\u00b1 14."),
                ours.formatAverage());
        assertEquals("fillseq [MEDIAN 3 runs] : 426703 ops/sec;   47.2 MB/sec", ours.formatMedian());
    }

    @Test
    void printerAndParserRoundTrip() {
        List<RunLine> lines = List.of(
                RunLine.of("fillseq", 1_000_000, 4.0537, 1, 116),
                RunLine.of("fillrandom", 20_000, 4.25, 1, 116),
                RunLine.of("fillseq", 4001, 0.0123, 2, 116),
                RunLine.of("fillrandom", 1_000_000, 123.456789, 4, 1024 + 16));
        for (RunLine l : lines) {
            String printed = l.format();
            RunLine back = RunLine.parse(printed).orElseThrow(() -> new AssertionError("unparsed: " + printed));
            assertEquals(printed, back.format());
            assertEquals(l.operations(), back.operations());
            assertEquals(l.opsPerSecond(), back.opsPerSecond());
            assertEquals(l.microsPerOp(), back.microsPerOp(), 0.0005);
        }
        RepeatSummary s = RepeatSummary.of(lines.subList(0, 2).stream()
                .map(l -> new RunLine("fillseq", l.microsPerOp(), l.opsPerSecond(), l.seconds(), l.operations(), l.mbPerSecond()))
                .toList());
        RepeatSummary back = RepeatSummary.parse(s.formatAverage(), s.formatMedian()).orElseThrow();
        assertEquals(s.formatAverage(), back.formatAverage());
        assertEquals(s.formatMedian(), back.formatMedian());
        assertTrue(RunLine.parse("fillseq [AVG    3 runs] : 1 (\u00b1 1) ops/sec;   1.0 (\u00b1 0.1) MB/sec").isEmpty());
    }

    @Test
    void runLineFollowsDbBenchsArithmetic() {
        // db_bench's example: 1,000,000 puts of 116 bytes in 4.054 s.
        RunLine l = RunLine.of("fillseq", 1_000_000, 4.054, 1, 116);
        assertEquals("fillseq      :       4.054 micros/op 246669 ops/sec 4.054 seconds 1000000 operations;   27.3 MB/s",
                l.format());
    }
}
