package dev.gauntlet.script.lang;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads one meta-command after its backslash and checks its arguments as pgbench 15's
 * {@code process_backslash_command} does, refusing it with pgbench's message.
 */
final class MetaCommandParser {

    /** The most words a meta-command may have, its name included ({@code MAX_ARGS}). */
    static final int MAX_WORDS = 256;

    /** The meta-commands pgbench 15 knows (there is no {@code \syncpipeline} before 17). */
    enum Kind {
        SET, SETSHELL, SHELL, SLEEP, GSET, ASET, IF, ELIF, ELSE, ENDIF, STARTPIPELINE, ENDPIPELINE, UNKNOWN;

        static Kind named(String name) {
            return switch (SqlTokens.asciiLowerCase(name)) {
                case "set" -> SET;
                case "setshell" -> SETSHELL;
                case "shell" -> SHELL;
                case "sleep" -> SLEEP;
                case "gset" -> GSET;
                case "aset" -> ASET;
                case "if" -> IF;
                case "elif" -> ELIF;
                case "else" -> ELSE;
                case "endif" -> ENDIF;
                case "startpipeline" -> STARTPIPELINE;
                case "endpipeline" -> ENDPIPELINE;
                default -> UNKNOWN;
            };
        }
    }

    /**
     * A meta-command read: a command of its own, or (for {@code \gset} and {@code \aset}) the results of the SQL
     * command before it.
     */
    record Parsed(Kind kind, Command.Meta command, ResultVariables results, String display) {
    }

    private final SourceText source;
    private final String scriptName;

    MetaCommandParser(SourceText source, String scriptName) {
        this.source = source;
        this.scriptName = scriptName;
    }

    /**
     * Reads the meta-command whose backslash is at {@code backslash}, with {@code lexer} just after it; null when
     * the backslash ends its line (pgbench ignores such a backslash).
     */
    Parsed parse(int backslash, MetaLexer lexer) {
        int line = source.lineOf(backslash);
        MetaLexer.Word first = lexer.nextWord();
        if (first == null) {
            return null;
        }
        String name = first.text();
        Kind kind = Kind.named(name);
        if (kind == Kind.SET || kind == Kind.IF || kind == Kind.ELIF) {
            return expressionCommand(kind, name, backslash, line, lexer);
        }
        List<MetaLexer.Word> words = new ArrayList<>();
        words.add(first);
        for (MetaLexer.Word w = lexer.nextWord(); w != null; w = lexer.nextWord()) {
            if (words.size() >= MAX_WORDS) {
                throw error(line, null, name, "too many arguments", null, -1);
            }
            words.add(w);
        }
        String display = source.chomped(backslash, lexer.position());
        int argc = words.size();
        switch (kind) {
            case SLEEP:
                return new Parsed(kind, sleep(name, backslash, line, display, words), null, display);
            case SETSHELL:
                if (argc < 3) {
                    throw error(line, display, name, "missing argument", null, -1);
                }
                return new Parsed(kind, new Command.SetShell(line, display, name, words.get(1).text(),
                        shellArguments(words.subList(2, argc))), null, display);
            case SHELL:
                if (argc < 2) {
                    throw error(line, display, name, "missing command", null, -1);
                }
                return new Parsed(kind, new Command.Shell(line, display, name,
                        shellArguments(words.subList(1, argc))), null, display);
            case ELSE:
            case ENDIF:
            case STARTPIPELINE:
            case ENDPIPELINE:
                if (argc != 1) {
                    throw error(line, display, name, "unexpected argument", null, -1);
                }
                return new Parsed(kind, switch (kind) {
                    case ELSE -> new Command.Else(line, display, name, -1);
                    case ENDIF -> new Command.Endif(line, display, name);
                    case STARTPIPELINE -> new Command.StartPipeline(line, display, name);
                    default -> new Command.EndPipeline(line, display, name);
                }, null, display);
            case GSET:
            case ASET:
                if (argc > 2) {
                    throw error(line, display, name, "too many arguments", null, -1);
                }
                ResultVariables.Mode mode = kind == Kind.GSET ? ResultVariables.Mode.GSET : ResultVariables.Mode.ASET;
                String prefix = argc > 1 ? words.get(1).text() : "";
                return new Parsed(kind, null, new ResultVariables(mode, prefix, line), display);
            default:
                throw error(line, display, name, "invalid command", null, -1);
        }
    }

    /** {@code \set variable expression}, {@code \if expression}, {@code \elif expression}. */
    private Parsed expressionCommand(Kind kind, String name, int backslash, int line, MetaLexer lexer) {
        String variable = null;
        if (kind == Kind.SET) {
            MetaLexer.Word word = lexer.nextWord();
            if (word == null) {
                throw error(line, null, name, "missing argument", null, -1);
            }
            variable = word.text();
        }
        int start = lexer.position();
        int end = lexer.expressionEnd();
        int after = lexer.position();
        String display = source.chomped(backslash, after);
        int endColumn = source.bytes(backslash, after) - 1;
        ExpressionText expression = new ExpressionText(source.text().substring(start, end), line,
                source.bytes(backslash, start), endColumn);
        if (expression.isBlank()) {
            throw error(line, display, name, "syntax error", null, endColumn);
        }
        Command.Meta command = switch (kind) {
            case SET -> new Command.Set(line, display, name, variable, expression);
            case IF -> new Command.If(line, display, name, expression, -1, -1);
            default -> new Command.Elif(line, display, name, expression, -1, -1);
        };
        return new Parsed(kind, command, null, display);
    }

    /** {@code \sleep amount [unit]}, the unit possibly written together with the amount ({@code 10ms}). */
    private Command.Sleep sleep(String name, int backslash, int line, String display, List<MetaLexer.Word> words) {
        int argc = words.size();
        if (argc < 2) {
            throw error(line, display, name, "missing argument", null, -1);
        }
        if (argc > 3) {
            throw error(line, display, name, "too many arguments", null, column(backslash, words.get(3).start()));
        }
        String amount = words.get(1).text();
        String unit = argc == 3 ? words.get(2).text() : null;
        int unitColumn = argc == 3 ? column(backslash, words.get(2).start()) : -1;
        if (!amount.startsWith(":")) {
            int c = 0;
            if (c < amount.length() && (amount.charAt(c) == '+' || amount.charAt(c) == '-')) {
                c++;
            }
            boolean digit = c < amount.length() && isDigit(amount.charAt(c));
            while (c < amount.length() && isDigit(amount.charAt(c))) {
                c++;
            }
            if (c < amount.length()) {
                if (argc == 2 && digit) {
                    unit = amount.substring(c);
                    unitColumn = column(backslash, words.get(1).start()) + SourceText.utf8Length(amount, 0, c);
                    amount = amount.substring(0, c);
                } else {
                    throw error(line, display, name, "invalid sleep time, must be an integer", words.get(1).text(),
                            column(backslash, words.get(1).start()));
                }
            }
        }
        SleepUnit sleepUnit = SleepUnit.S;
        if (unit != null) {
            sleepUnit = SleepUnit.named(unit);
            if (sleepUnit == null) {
                throw error(line, display, name, "unrecognized time unit, must be us, ms or s", unit, unitColumn);
            }
        }
        return new Command.Sleep(line, display, name, amount, sleepUnit);
    }

    private static List<ShellArgument> shellArguments(List<MetaLexer.Word> words) {
        List<ShellArgument> arguments = new ArrayList<>(words.size());
        for (MetaLexer.Word w : words) {
            arguments.add(ShellArgument.of(w.text()));
        }
        return arguments;
    }

    private int column(int backslash, int index) {
        return source.bytes(backslash, index);
    }

    private ScriptFileException error(int line, String display, String command, String message, String more,
            int column) {
        return ScriptFileException.syntaxError(scriptName, line, display, command, message, more, column);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
