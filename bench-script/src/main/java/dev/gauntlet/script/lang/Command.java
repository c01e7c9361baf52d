package dev.gauntlet.script.lang;

import java.util.List;

/**
 * One command of a pgbench script, as pgbench 15 parses it: an SQL command or a meta-command.
 *
 * <p>{@link #display()} is the text pgbench shows for the command in {@code -r} per-command reports: for an SQL
 * command, its first line (at most 127 bytes, cut at the first {@code '\n'} or {@code '\r'}); for a meta-command,
 * its whole text from the backslash to its end, continuation lines included (so possibly several lines), trailing
 * newlines dropped.
 */
public sealed interface Command {

    /** The 1-based line where the command starts (its backslash; an SQL command's first character). */
    int line();

    /** What pgbench shows for the command in per-command reports (see {@link Command}). */
    String display();

    /**
     * An SQL command.
     *
     * @param text the command as sent, references unsubstituted: the source from its first token to its ending
     *     {@code ;} (included) or to the backslash of the meta-command after it (trailing whitespace included) or to
     *     the end of the script, with {@code \;} as {@code ;} and {@code \:} as {@code :}
     * @param compound whether the command holds {@code \;}, so several queries go in one message
     * @param queryCount how many queries the {@code \;} parts hold (parts with only whitespace, comments and
     *     semicolons are empty queries, which return no result): 1 for a plain command, 0 for one that is only a
     *     comment (pgbench sends it all the same)
     * @param results the {@code \gset} or {@code \aset} that follows the command, or null
     */
    record Sql(int line, String display, SqlText text, boolean compound, int queryCount, ResultVariables results)
            implements Command {

        /** This command with the results of a {@code \gset} or {@code \aset}. */
        public Sql withResults(ResultVariables resultVariables) {
            return new Sql(line, display, text, compound, queryCount, resultVariables);
        }
    }

    /**
     * A meta-command (a backslash command).
     */
    sealed interface Meta extends Command {
        /**
         * The command's name as written, without the backslash ({@code "set"}, {@code "SLEEP"}): pgbench matches
         * names in any case and names the command this way in its errors ({@code "client 0 aborted in command 0
         * (set) of script 0; ..."}).
         */
        String name();
    }

    /** {@code \set variable expression}. The variable's name is checked when it is assigned, at run time. */
    record Set(int line, String display, String name, String variable, ExpressionText expression) implements Meta {
    }

    /**
     * {@code \sleep amount [unit]}.
     *
     * @param amount {@code ":name"} for a variable's value, otherwise the number as written (a sign and digits,
     *     the unit split off when it was written together, as in {@code 10ms})
     * @param unit the unit, {@link SleepUnit#S} when none was written
     */
    record Sleep(int line, String display, String name, String amount, SleepUnit unit) implements Meta {

        /** Whether the amount is a variable's value ({@code \sleep :name}). */
        public boolean fromVariable() {
            return amount.startsWith(":");
        }

        /** The variable's name when {@link #fromVariable()}. */
        public String variable() {
            return amount.substring(1);
        }

        /**
         * The amount as pgbench reads it, with C's {@code atoi} ({@code (int) strtol}: saturated to a 64-bit long,
         * then cut to 32 bits), when it is not a variable; a lone sign is 0. A variable's value is read the same
         * way ({@link #atoi}).
         */
        public int literal() {
            return atoi(amount);
        }

        /** C's {@code atoi} as glibc has it: leading whitespace, a sign, digits; 0 when none. */
        public static int atoi(String s) {
            int i = 0;
            while (i < s.length() && " \t\n\r\f\u000b".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            boolean negative = false;
            if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                negative = s.charAt(i) == '-';
                i++;
            }
            long value = 0;
            boolean overflow = false;
            for (; i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9'; i++) {
                int digit = s.charAt(i) - '0';
                if (!overflow && value > (Long.MAX_VALUE - digit) / 10) {
                    overflow = true;
                }
                if (!overflow) {
                    value = value * 10 + digit;
                }
            }
            long result = overflow ? (negative ? Long.MIN_VALUE : Long.MAX_VALUE) : (negative ? -value : value);
            return (int) result;
        }
    }

    /**
     * {@code \setshell variable command [argument...]}: runs the command and stores the integer it prints.
     *
     * @param command the command's words, the first being the program
     */
    record SetShell(int line, String display, String name, String variable, List<ShellArgument> command)
            implements Meta {
        public SetShell {
            command = List.copyOf(command);
        }
    }

    /**
     * {@code \shell command [argument...]}.
     *
     * @param command the command's words, the first being the program
     */
    record Shell(int line, String display, String name, List<ShellArgument> command) implements Meta {
        public Shell {
            command = List.copyOf(command);
        }
    }

    /**
     * A command of a conditional block that has a condition and a branch: {@code \if} or {@code \elif}.
     *
     * <p>Indexes are positions in {@link Script#commands()}. When the condition is true, run on at the next
     * command; when false, go to {@link #nextBranch()}: an {@code \elif} there is evaluated in turn, after an
     * {@code \else} or the {@code \endif} run on at the command after it. A branch that ran and reaches an
     * {@code \elif} or {@code \else} goes on after {@link #endIf()}.
     */
    sealed interface Branch extends Meta {
        /** The condition. */
        ExpressionText condition();

        /** The index of the {@code \elif}, {@code \else} or {@code \endif} that ends this branch. */
        int nextBranch();

        /** The index of the block's {@code \endif}. */
        int endIf();
    }

    /** {@code \if expression}. */
    record If(int line, String display, String name, ExpressionText condition, int nextBranch, int endIf)
            implements Branch {
    }

    /** {@code \elif expression}. */
    record Elif(int line, String display, String name, ExpressionText condition, int nextBranch, int endIf)
            implements Branch {
    }

    /** {@code \else}; a branch that ran and reaches it goes on after {@link #endIf()} (an index). */
    record Else(int line, String display, String name, int endIf) implements Meta {
    }

    /** {@code \endif}. */
    record Endif(int line, String display, String name) implements Meta {
    }

    /**
     * {@code \startpipeline}. pgbench 15 checks pipelines only at run time: under the simple protocol
     * ({@code "cannot use pipeline mode with the simple query protocol"}), a second {@code \startpipeline}
     * ({@code "already in pipeline mode"}), an {@code \endpipeline} outside one ({@code "not in pipeline mode"}),
     * a script that ends inside one ({@code "end of script reached with pipeline open"}).
     */
    record StartPipeline(int line, String display, String name) implements Meta {
    }

    /** {@code \endpipeline}. */
    record EndPipeline(int line, String display, String name) implements Meta {
    }
}
