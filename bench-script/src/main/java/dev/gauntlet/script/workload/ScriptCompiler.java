package dev.gauntlet.script.workload;

import dev.gauntlet.script.lang.Command;
import dev.gauntlet.script.lang.Expression;
import dev.gauntlet.script.lang.ExpressionParser;
import dev.gauntlet.script.lang.ExpressionText;
import dev.gauntlet.script.lang.Script;
import dev.gauntlet.script.lang.ScriptFileException;
import dev.gauntlet.script.lang.ScriptSyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A parsed script made ready to run: each command one instruction (so {@code -r} counts them as pgbench does), its
 * expressions parsed, a syntax error reported as pgbench reports it (file, line, the command, a caret).
 */
public final class ScriptCompiler {

    private ScriptCompiler() {
    }

    /**
     * @param index         the script's place among the run's (0-based)
     * @param operation     the name its transactions are recorded under
     * @param writesHistory whether it is a built-in whose commits go to the history ledger
     */
    public static CompiledScript compile(int index, Script script, String operation, boolean writesHistory) {
        List<Command> commands = script.commands();
        Instruction[] code = new Instruction[commands.size()];
        List<String> displays = new ArrayList<>();
        for (int i = 0; i < code.length; i++) {
            Command c = commands.get(i);
            displays.add(c.display());
            code[i] = instruction(script, i, c, i + 1 < code.length ? commands.get(i + 1) : null, code);
        }
        return new CompiledScript(index, operation, script.name(), script.weight(), code, displays, writesHistory);
    }

    private static Instruction instruction(Script script, int i, Command c, Command next, Instruction[] code) {
        boolean last = next == null;
        if (c instanceof Command.Sql s) {
            return new SqlInstruction(i, s.text(), s.compound(), s.results(),
                    SqlInstruction.Boundary.of(s, next instanceof Command.Sql));
        } else if (c instanceof Command.Set s) {
            return new Meta.Set(i, s.variable(), expression(script, s, s.expression(), last));
        } else if (c instanceof Command.Sleep s) {
            return new Meta.Sleep(i, s.fromVariable() ? 0 : s.literal(), s.fromVariable() ? s.variable() : null,
                    s.unit().micros() * 1000);
        } else if (c instanceof Command.SetShell s) {
            return new Meta.Shell(i, s.variable(), s.command());
        } else if (c instanceof Command.Shell s) {
            return new Meta.Shell(i, null, s.command());
        } else if (c instanceof Command.If s) {
            return new Meta.Branch(i, expression(script, s, s.condition(), last), s.nextBranch(), code);
        } else if (c instanceof Command.Elif s) {
            return new Meta.Elif(i, expression(script, s, s.condition(), last), s.nextBranch(), s.endIf(), code);
        } else if (c instanceof Command.Else s) {
            return new Meta.SkipTo(i, s.endIf());
        } else if (c instanceof Command.Endif) {
            return new Meta.SkipTo(i, Instruction.NEXT);
        } else if (c instanceof Command.StartPipeline) {
            return new Meta.StartPipeline(i);
        } else if (c instanceof Command.EndPipeline) {
            return new Meta.EndPipeline(i);
        }
        throw new IllegalStateException("a command of no known kind: " + c);
    }

    /** The expression parsed, or pgbench's error for it: file, line, the command, a caret under the column. */
    private static Expression expression(Script script, Command.Meta command, ExpressionText text, boolean last) {
        try {
            return ExpressionParser.parse(text.lexable(), last);
        } catch (ScriptSyntaxException e) {
            int column = e.column() < 0 ? -1
                    : e.column() >= text.lexable().getBytes(StandardCharsets.UTF_8).length ? text.endColumn()
                    : text.offset() + e.column();
            throw ScriptFileException.syntaxError(script.name(), text.line(), command.display(), command.name(),
                    e.reason(), e.detail(), column);
        }
    }
}
