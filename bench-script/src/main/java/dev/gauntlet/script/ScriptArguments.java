package dev.gauntlet.script;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.script.lang.BuiltinScript;
import dev.gauntlet.script.lang.BuiltinScripts;
import dev.gauntlet.script.lang.QueryMode;
import dev.gauntlet.script.lang.Script;
import dev.gauntlet.script.lang.ScriptChoice;
import dev.gauntlet.script.lang.ScriptFileException;
import dev.gauntlet.script.lang.ScriptParser;
import dev.gauntlet.script.lang.ScriptWeight;
import dev.gauntlet.script.workload.CompiledScript;
import dev.gauntlet.script.workload.ScriptCompiler;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The run's scripts from {@code -b}, {@code -f}, {@code -N} and {@code -S} in the order given, read, parsed and
 * compiled; whatever pgbench refuses before it connects (a file it cannot read, a script it cannot parse, a bad
 * weight, an unknown built-in, a total weight of zero) is refused in pgbench's words.
 */
final class ScriptArguments {

    private ScriptArguments() {
    }

    /** The scripts compiled, and pgbench's choice among them. */
    record Chosen(List<CompiledScript> scripts, ScriptChoice choice) {
    }

    static Chosen compile(List<PgbenchOptions.ScriptArgument> given, QueryMode mode) {
        try {
            List<CompiledScript> compiled = new ArrayList<>();
            Set<String> names = new HashSet<>();
            ScriptChoice choice = new ScriptChoice();
            for (PgbenchOptions.ScriptArgument argument : given) {
                ScriptWeight w = ScriptWeight.parse(argument.text());
                Script script;
                String operation;
                boolean writesHistory = false;
                if (argument.builtin()) {
                    BuiltinScript builtin = BuiltinScripts.find(w.script());
                    script = builtin.parse(w.weight());
                    operation = builtin.name();
                    writesHistory = builtin != BuiltinScripts.SELECT_ONLY;
                } else {
                    script = ScriptParser.parseFile(w.script(), w.weight());
                    operation = java.nio.file.Path.of(w.script()).getFileName().toString();
                }
                ScriptParser.checkQueryMode(script, mode);
                String unique = operation;
                for (int n = 2; !names.add(unique); n++) {
                    unique = operation + " (" + n + ")";
                }
                choice.add(script);
                compiled.add(ScriptCompiler.compile(compiled.size(), script, unique, writesHistory));
            }
            choice.checkTotalWeight();
            return new Chosen(compiled, choice);
        } catch (ScriptFileException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }
}
