package dev.gauntlet.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.rocksdb.fill.DbBenchProcess;
import dev.gauntlet.rocksdb.fill.SideBySide;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --compare-db-bench end to end; needs RocksDB's db_bench on the PATH. */
class DbBenchComparisonTest {

    @TempDir
    Path tmp;

    @Test
    void runsDbBenchBesideUsAndReportsBoth() throws Exception {
        assumeTrue(DbBenchProcess.find("db_bench").isPresent(),
                "db_bench is not on the PATH (Debian: apt-get install rocksdb-tools); skipping the side-by-side run");
        Path out = tmp.resolve("out");
        Cli cli = Cli.run("fill", "--num", "5000", "--manual-wal-flush", "--repeat", "2", "--compare-db-bench",
                "--db", tmp.resolve("db").toString(), "--out", out.toString());
        assertEquals(0, cli.exitCode, cli.err);
        RunResult series = ResultFile.read(out.resolve("fillseq"));
        assertTrue(series.metrics().containsKey(SideBySide.JNI_OVERHEAD), series.metrics().toString());
        assertTrue(series.metrics().get("dbBenchMedianOpsPerSecond") > 0);
        String md = Files.readString(out.resolve("fillseq").resolve(SideBySide.FILE_NAME));
        assertTrue(md.contains("## Beside db_bench") && md.contains("JNI overhead"), md);
    }
}
