package dev.gauntlet.rocksdb;

import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.rocksdb.jmh.JmhMatrix;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jmh-table}: the fill benchmarks' JMH JSON as a Markdown matrix. */
@Command(name = "jmh-table", mixinStandardHelpOptions = true,
        description = "Turns JMH results of AsyncFillBenchmark/SyncFillBenchmark (-rf json) into a Markdown matrix: "
                + "variant x ops/s, micros/op, MB/s, WAL bytes/op, WAL syncs/op, write stalls.",
        footer = {"", "JMH results: java -jar bench-rocksdb/target/bench-rocksdb-benchmarks.jar FillBenchmark -rf json "
                + "-rff fill.json",
                "", "Examples:",
                "  bench-rocksdb jmh-table reports/rocksdb/jmh-fill.json   # the project's figures (from the repo root)",
                "  bench-rocksdb jmh-table fill.json --out fill.md"})
public final class JmhTableCommand implements Callable<Integer> {

    @Parameters(paramLabel = "JSON", arity = "1..*", description = "JMH result files (-rf json -rff FILE).")
    List<Path> files;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the Markdown to this file.")
    Path out;

    @Override
    public Integer call() throws IOException {
        List<JmhMatrix.Row> rows = files.stream().flatMap(f -> JmhMatrix.read(f).stream()).toList();
        String md = JmhMatrix.markdown(rows) + "\n" + JmhMatrix.iterations(rows);
        System.out.print(md);
        if (out != null) {
            Files.writeString(out, md);
        }
        return ExitCode.OK;
    }
}
