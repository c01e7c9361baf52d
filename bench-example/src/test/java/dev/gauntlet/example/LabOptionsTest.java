package dev.gauntlet.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.cli.GauntletCommandLine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The lab's options on a workload's command line: bad ones are one line and exit 2, before anything starts. */
class LabOptionsTest {

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome run(String... args) {
        StringWriter err = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream console = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            CommandLine cli = GauntletCommandLine.create(new KvCommand());
            cli.setErr(new PrintWriter(err, true));
            return new Outcome(cli.execute(args), out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(console);
        }
    }

    @Test
    void badClusterOptionsAreOneLineAndNothingStarts() {
        Outcome unknown = run("run", "--cluster", "cockroach", "--duration", "1s");
        assertEquals(2, unknown.code(), unknown.err());
        assertEquals("run: --cluster cockroach is not a cluster Gauntlet can start; --cluster patroni is\n",
                unknown.err());
        Outcome both = run("run", "--cluster", "patroni", "--url", "jdbc:postgresql://db/x", "--duration", "1s");
        assertEquals(2, both.code());
        assertTrue(both.err().startsWith("run: --cluster starts its own cluster: give it or --url, not both"),
                both.err());
        Outcome route = run("run", "--cluster", "patroni", "--cluster-route", "dns", "--duration", "1s");
        assertEquals(2, route.code());
        assertTrue(route.err().contains("--cluster-route must be haproxy or multi-host, not 'dns'"), route.err());
        Outcome standby = run("run", "--cluster", "patroni", "--cluster-standby", "semi", "--duration", "1s");
        assertEquals(2, standby.code());
        assertTrue(standby.err().contains("--standby must be sync or async, not 'semi'"), standby.err());
        Outcome init = run("init", "--cluster", "patroni");
        assertEquals(2, init.code());
        assertTrue(init.err().startsWith("init: --cluster starts a cluster for one run"), init.err());
        for (Outcome o : new Outcome[] {unknown, both, route, standby, init}) {
            assertEquals(1, o.err().lines().count(), o.err());
            assertTrue(!o.out().contains("Starting"), "nothing started: " + o.out());
        }
    }

    @Test
    void labAloneShowsItsCommands() {
        Outcome lab = run("lab");
        assertEquals(0, lab.code(), lab.err());
        assertTrue(lab.out().contains("up") && lab.out().contains("down") && lab.out().contains("Examples:"),
                lab.out());
    }
}
