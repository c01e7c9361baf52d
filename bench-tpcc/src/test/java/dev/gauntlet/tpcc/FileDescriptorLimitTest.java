package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.testing.ChildJvm;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run of more clients than the process may open connections is refused before it starts, in one line that says
 * the limit and how to raise it, not failed at the 500th connection.
 */
@ExtendWith(PostgresExtension.class)
@Tag("long")
class FileDescriptorLimitTest {

    @Test
    void clientsBeyondTheOpenFilesLimitAreRefusedInOneLine(TestDatabase server, @TempDir Path tmp) throws Exception {
        TestDatabase db = server.freshDatabase("tpcc_fd_limit");
        assertEquals(0, TpccCommandTest.tpcc(db, "init", "--warehouses", "1", "--seed", "5").code());
        List<String> command = new ArrayList<>(List.of("sh", "-c", "ulimit -n 400 && exec \"$@\"", "sh"));
        command.addAll(ChildJvm.command(TpccCommand.class, List.of(), db, "run", "--clients", "1000", "--duration",
                "5s", "--no-check", "--out", tmp.resolve("run").toString()));
        Path log = tmp.resolve("child.log");
        Process child = ChildJvm.start(command, log);
        assertTrue(child.waitFor(2, TimeUnit.MINUTES), "the child did not end");
        String output = Files.readString(log);
        assertEquals(2, child.exitValue(), output);
        List<String> errors = output.lines().filter(l -> l.startsWith("run: ")).toList();
        assertEquals(1, errors.size(), output);
        assertTrue(errors.get(0).contains("--clients 1000 (--pool direct) need 1,000 connections, one file descriptor "
                + "each, but this process may open 400 files (ulimit -n)"), errors.get(0));
        // The limit it names: the clients' connections, the files already open (the classpath's jars among them, so
        // not a constant) and OpenFiles' margin of 128.
        java.util.regex.Matcher open = java.util.regex.Pattern.compile("and has (\\d+) open: raise the limit "
                + "\\(ulimit -n (\\d+)\\) or share fewer connections \\(--pool pooled --pool-size N\\)")
                .matcher(errors.get(0));
        assertTrue(open.find(), errors.get(0));
        assertEquals(1000 + Integer.parseInt(open.group(1)) + 128, Integer.parseInt(open.group(2)), errors.get(0));
        assertTrue(!Files.exists(tmp.resolve("run").resolve("result.json")), "nothing half-written");
    }
}
