package dev.gauntlet.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.rocksdb.jmh.JmhMatrix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JMH's JSON (shape as written by JMH 1.37 -rf json) becomes one matrix row per variant. */
class JmhMatrixTest {

    @TempDir
    Path tmp;

    @Test
    void derivesPerPutFiguresFromTheSingleShotFillTime() throws Exception {
        String json = """
                [{"benchmark":"dev.gauntlet.rocksdb.jmh.AsyncFillBenchmark.fill","mode":"ss","threads":1,"forks":1,
                  "params":{"benchmark":"fillseq","wal":"manual_wal_flush","num":"1000000"},
                  "primaryMetric":{"score":2000.0,"scoreError":100.0,"scoreUnit":"ms/op","rawData":[[1900.0,2000.0,2100.0]]},
                  "secondaryMetrics":{
                    "puts":{"score":3000000.0,"scoreUnit":"#","rawData":[[1000000.0,1000000.0,1000000.0]]},
                    "walBytes":{"score":393000000.0,"scoreUnit":"#","rawData":[[131000000.0,131000000.0,131000000.0]]},
                    "walSyncs":{"score":0.0,"scoreUnit":"#","rawData":[[0.0,0.0,0.0]]},
                    "writeStalls":{"score":0.0,"scoreUnit":"#","rawData":[[0.0,0.0,0.0]]},
                    "stallMicros":{"score":0.0,"scoreUnit":"#","rawData":[[0.0,0.0,0.0]]}}},
                 {"benchmark":"dev.gauntlet.rocksdb.jmh.SyncFillBenchmark.fill","mode":"ss","threads":1,"forks":1,
                  "params":{"benchmark":"fillrandom","manualWalFlush":"true","num":"20000"},
                  "primaryMetric":{"score":4.0,"scoreError":0.1,"scoreUnit":"s/op","rawData":[[4.0]]},
                  "secondaryMetrics":{"puts":{"score":20000.0,"rawData":[[20000.0]]},
                    "walBytes":{"score":2620000.0,"rawData":[[2620000.0]]},
                    "walSyncs":{"score":20000.0,"rawData":[[20000.0]]}}}]
                """;
        Path file = tmp.resolve("jmh.json");
        Files.writeString(file, json);
        List<JmhMatrix.Row> rows = JmhMatrix.read(file);
        assertEquals(2, rows.size());
        JmhMatrix.Row async = rows.get(0);
        assertEquals("fillseq sync=false manual_wal_flush=true", async.variant());
        assertEquals(500_000, async.opsPerSecond(), 1e-6);
        assertEquals(2.0, async.microsPerOp(), 1e-9);
        assertEquals(131.0, async.walBytesPerPut(), 1e-9);
        JmhMatrix.Row sync = rows.get(1);
        assertEquals("fillrandom sync=true manual_wal_flush=true", sync.variant());
        assertEquals(5_000, sync.opsPerSecond(), 1e-6);
        assertEquals(1.0, sync.walSyncsPerPut(), 1e-9);
        String md = JmhMatrix.markdown(rows);
        assertTrue(md.contains("| fillseq sync=false manual_wal_flush=true | 1,000,000 | 2,000.0 ± 100.0 | 500,000 | 2.000 |"), md);
    }
}
