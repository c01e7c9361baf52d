package dev.gauntlet.script.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link ScriptWeight}, {@link BuiltinScripts}, {@link ScriptChoice} and {@link ScriptParser#parseFile} against what
 * real pgbench 15 did with the option cases of reports/bench-script/conformance/options.cases (recorded by
 * run-bad-scripts.sh in options.tsv): the same refusals, or the same scripts, weights and commands.
 */
class ScriptOptionsConformanceTest {

    /** A script of a run as pgbench reports it: name, weight, command displays. */
    private record Reported(String name, int weight, List<String> commands) {
    }

    @TestFactory
    Stream<DynamicTest> eachOptionCaseAsPgbenchSawIt() {
        return Conformance.options().values().stream().map(c -> {
            List<String> args = List.of(Conformance.unescape(c.rows().get(0).keys().get(1)).split("\t"));
            String name = c.id() + ": " + (args.size() > 8 ? args.subList(0, 4) + "... (" + args.size() + ")" : args);
            return DynamicTest.dynamicTest(name, () -> check(name, args, c));
        });
    }

    private static void check(String name, List<String> args, Conformance.Case recorded) {
        Path directory = Conformance.scriptDirectory();
        if (recorded.exit() != 0) {
            ScriptFileException e = assertThrows(ScriptFileException.class, () -> run(args, directory), "case " + name);
            assertEquals(recorded.stderr(), e.pgbenchStderr().replace(directory + "/", ""), "case " + name);
            return;
        }
        ScriptChoice choice = run(args, directory);
        List<Reported> reported = reported(recorded);
        List<Reported> parsed = new ArrayList<>();
        for (Script s : choice.scripts()) {
            parsed.add(new Reported(s.name().replace(directory + "/", ""), s.weight(),
                    s.commands().stream().map(Command::display).toList()));
        }
        if (reported.size() == 1) {
            // a single script's report names it but gives no weight
            parsed.set(0, new Reported(parsed.get(0).name(), 0, parsed.get(0).commands()));
        }
        if (!args.contains("-r")) {
            parsed.replaceAll(p -> new Reported(p.name(), p.weight(), List.of()));
        }
        assertEquals(reported, parsed, "case " + name);
    }

    /** The scripts, weights and commands of pgbench's report, as the rows recorded them. */
    private static List<Reported> reported(Conformance.Case recorded) {
        List<Reported> out = new ArrayList<>();
        String name = null;
        int weight = 0;
        List<String> commands = new ArrayList<>();
        for (Conformance.Row r : recorded.rows()) {
            switch (r.kind()) {
                case "type" -> name = r.text().equals("multiple scripts") ? null : r.text();
                case "script" -> {
                    if (name != null) {
                        out.add(new Reported(name, weight, commands));
                    }
                    name = r.text();
                    weight = 0;
                    commands = new ArrayList<>();
                }
                case "weight" -> weight = Integer.parseInt(r.text());
                case "command" -> commands.add(r.text());
                default -> throw new AssertionError("unexpected row " + r);
            }
        }
        out.add(new Reported(name, weight, commands));
        return out;
    }

    /** pgbench's handling of the script options, in order (the options that are no script's are ignored). */
    private static ScriptChoice run(List<String> args, Path directory) {
        ScriptChoice choice = new ScriptChoice();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-b")) {
                ScriptWeight w = ScriptWeight.parse(args.get(++i));
                choice.add(BuiltinScripts.find(w.script()).parse(w.weight()));
            } else if (a.equals("-f")) {
                ScriptWeight w = ScriptWeight.parse(args.get(++i));
                String file = w.script().isEmpty() ? "" : directory.resolve(w.script()).toString();
                choice.add(ScriptParser.parseFile(file, w.weight()));
            } else if (a.equals("-N")) {
                choice.add(BuiltinScripts.SIMPLE_UPDATE.parse(1));
            } else if (a.equals("-S")) {
                choice.add(BuiltinScripts.SELECT_ONLY.parse(1));
            } else if (a.startsWith("--show-script=")) {
                BuiltinScripts.find(a.substring("--show-script=".length()));
                return choice;
            }
        }
        choice.checkTotalWeight();
        return choice;
    }
}
