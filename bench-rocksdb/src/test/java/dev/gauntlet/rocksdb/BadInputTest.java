package dev.gauntlet.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every bad input gets one line naming it and exit code 2, before anything is written. */
class BadInputTest {

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--num 0                                  | --num must be at least 1",
            "--benchmarks fillsq                      | unknown benchmark 'fillsq'",
            "--flush-wal sometimes                    | --flush-wal 'sometimes'",
            "--flush-wal every:0                      | every:N needs N >= 1",
            "--disable-wal --sync                     | cannot be combined with --sync",
            "--disable-wal --manual-wal-flush         | --disable-wal makes --manual-wal-flush meaningless",
            "--disable-wal --flush-wal end            | no WAL to flush",
            "--repeat 0                               | --repeat must be at least 1",
            "--threads 0                              | --threads must be at least 1",
            "--key-size 0                             | --key-size must be between",
            "--compression brotli                     | brotli",
            "--compare-db-bench --db-bench /nonexistent/db_bench | needs db_bench"})
    void refusedWithOneLine(String options, String message) throws Exception {
        List<String> args = new ArrayList<>(List.of("fill", "--out", tmp.resolve("out").toString(), "--db",
                tmp.resolve("db").toString()));
        args.addAll(List.of(options.trim().split("\\s+")));
        Cli cli = Cli.run(args.toArray(String[]::new));
        assertEquals(2, cli.exitCode, cli.err);
        assertTrue(cli.err.contains(message), cli.err);
        assertEquals(1, cli.err.strip().lines().count(), cli.err);
        assertTrue(Files.notExists(tmp.resolve("out")), "nothing written");
    }
}
