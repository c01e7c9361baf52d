package dev.gauntlet.script.workload;

import dev.gauntlet.script.lang.Expression;
import dev.gauntlet.script.lang.ScriptException;
import dev.gauntlet.script.lang.ShellArgument;
import dev.gauntlet.script.lang.Value;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The meta-commands of a script as instructions: what each does when the script reaches it. */
final class Meta {

    private Meta() {
    }

    /** {@code \set NAME EXPRESSION}. */
    record Set(int command, String name, Expression expression) implements Instruction {
        @Override
        public int run(Execution x) throws ScriptException {
            x.client.variables.assign("set", name, expression.evaluate(x));
            return NEXT;
        }
    }

    /** {@code \sleep N [us|ms|s]}: N a number or a variable holding one; the sleep is part of the transaction. */
    record Sleep(int command, long amount, String variable, long nanosPerUnit) implements Instruction {
        @Override
        public int run(Execution x) throws ScriptException, InterruptedException {
            long n = amount;
            if (variable != null) {
                Long v = x.client.variables.integer(variable);
                if (v == null) {
                    throw new ScriptException(x.client.variables.defined(variable)
                            ? "\\sleep: invalid sleep time \"" + x.client.variables.text(variable) + "\" for variable \""
                            + variable + "\""
                            : "\\sleep: undefined variable \"" + variable + "\"");
                }
                n = v;
            }
            if (n > 0) {
                TimeUnit.NANOSECONDS.sleep(n * nanosPerUnit);
            }
            return NEXT;
        }
    }

    /**
     * {@code \shell COMMAND ARGS...} and {@code \setshell NAME COMMAND ARGS...}: the words (variables substituted)
     * joined by single spaces and run by the shell, as pgbench's {@code system()}/{@code popen()}; {@code \setshell}
     * sets the variable to the integer the command prints.
     */
    record Shell(int command, String into, List<ShellArgument> words) implements Instruction {

        /** pgbench's limit on a shell command line. */
        private static final int MAX_LINE = 255;

        @Override
        public int run(Execution x) throws ScriptException, IOException, InterruptedException {
            List<String> substituted = new ArrayList<>();
            String program = words.get(0).value();
            for (ShellArgument a : words) {
                if (!a.variable()) {
                    substituted.add(a.value());
                    continue;
                }
                String value = x.client.variables.text(a.value());
                if (value == null) {
                    throw new ScriptException(program + ": undefined variable \"" + a.word() + "\"");
                }
                substituted.add(value);
            }
            String line = String.join(" ", substituted);
            if (line.getBytes(StandardCharsets.UTF_8).length >= MAX_LINE) {
                throw new ScriptException(program + ": shell command is too long");
            }
            ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", line);
            pb.redirectError(ProcessBuilder.Redirect.INHERIT);
            if (into == null) {
                pb.redirectOutput(ProcessBuilder.Redirect.INHERIT);
            }
            Process p = pb.start();
            String output = into == null ? "" : new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = p.waitFor();
            if (into == null) {
                if (exit != 0) {
                    throw new ScriptException(program + ": could not launch shell command");
                }
                return NEXT;
            }
            if (output.isEmpty()) {
                throw new ScriptException(program + ": could not read result of shell command");
            }
            String number = output.strip();
            long value;
            try {
                value = Long.parseLong(number);
            } catch (NumberFormatException e) {
                throw new ScriptException(program + ": shell command must return an integer (not \"" + number
                        + "\")");
            }
            x.client.variables.assign("setshell", into, Value.ofInt(value));
            return NEXT;
        }
    }

    /**
     * {@code \if}: goes on when the condition is true; else to the next branch, evaluating each {@code \elif}'s
     * condition in turn until one is true, or an {@code \else}, or the {@code \endif}.
     */
    record Branch(int command, Expression condition, int nextBranch, Instruction[] code) implements Instruction {
        @Override
        public int run(Execution x) throws ScriptException {
            return condition.evaluate(x).truth() ? NEXT : Elif.enter(nextBranch, code, x);
        }
    }

    /**
     * {@code \elif}: reached by a branch that ran, on to the {@code \endif}; entered from a false condition before
     * it ({@link #enter}), its own condition decides.
     */
    record Elif(int command, Expression condition, int nextBranch, int endIf, Instruction[] code)
            implements Instruction {
        @Override
        public int run(Execution x) {
            return endIf;
        }

        /** Where a false condition leads: into the branch at {@code target}, its condition evaluated when it has one. */
        static int enter(int target, Instruction[] code, Execution x) throws ScriptException {
            for (int at = target; ; ) {
                if (!(code[at] instanceof Elif e)) {
                    return at + 1;
                }
                x.command = e.command;
                if (e.condition.evaluate(x).truth()) {
                    return at + 1;
                }
                at = e.nextBranch;
            }
        }
    }

    /** {@code \else} (a branch that ran goes to the {@code \endif}) and {@code \endif} (nothing to do). */
    record SkipTo(int command, int target) implements Instruction {
        @Override
        public int run(Execution x) {
            return target;
        }
    }

    /**
     * {@code \startpipeline}: the SQL until {@code \endpipeline} is sent as one JDBC batch, without waiting for each
     * result (pgjdbc sends a batch's statements before reading their results).
     */
    record StartPipeline(int command) implements Instruction {
        @Override
        public int run(Execution x) throws SQLException, ScriptException {
            if (x.mode == dev.gauntlet.script.lang.QueryMode.SIMPLE) {
                throw new ScriptException("cannot use pipeline mode with the simple query protocol");
            }
            if (x.pipeline != null) {
                throw new ScriptException("already in pipeline mode");
            }
            x.pipeline = x.connection.createStatement();
            return NEXT;
        }
    }

    /** {@code \endpipeline}: sends the pipeline's statements and waits for all their results. */
    record EndPipeline(int command) implements Instruction {
        @Override
        public int run(Execution x) throws SQLException, ScriptException {
            if (x.pipeline == null) {
                throw new ScriptException("not in pipeline mode");
            }
            try {
                x.pipeline.executeBatch();
            } finally {
                x.pipeline.close();
                x.pipeline = null;
            }
            return NEXT;
        }
    }
}
