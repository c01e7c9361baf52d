package dev.gauntlet.script.lang;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses pgbench scripts as PostgreSQL 15's pgbench does ({@code ParseScript}), refusing what it refuses with its
 * messages ({@link ScriptFileException}).
 *
 * <p>An SQL command runs to a {@code ;} outside quotes, comments, dollar quotes and parentheses (so over several
 * lines), to the backslash of a meta-command (on the same line or not), or to the end of the script (a last command
 * needs no {@code ;}). A meta-command runs to the end of its line; a backslash right before the newline continues it.
 * Whitespace and {@code --} comments between commands are dropped; a {@code /* *}{@code /} comment alone is a
 * command (sent to the server, which finds it empty). {@code \gset} and {@code \aset} join the SQL command before
 * them.
 */
public final class ScriptParser {

    private ScriptParser() {
    }

    /**
     * Parses {@code script}, named {@code name} (its file name as given, or a built-in's description). Like
     * pgbench, which reads a script as a C string, it ignores everything from a NUL character on.
     *
     * @throws ScriptFileException with pgbench's message for what pgbench refuses when it reads a script: an
     *     unknown meta-command, missing, extra or malformed arguments, an empty {@code \set}/{@code \if}/
     *     {@code \elif} expression (other expression errors are the expression compiler's to find), a misplaced
     *     {@code \gset}, an empty script, unbalanced conditionals
     */
    public static Script parse(String name, String script, int weight) {
        int nul = script.indexOf('\0');
        String text = nul < 0 ? script : script.substring(0, nul);
        SourceText source = new SourceText(text);
        SqlScanner scanner = new SqlScanner(text);
        MetaCommandParser metaCommands = new MetaCommandParser(source, name);
        List<Command> commands = new ArrayList<>();
        int previousEnd = -1;
        while (true) {
            int gsetErrorLine = source.lineOf(previousEnd < 0 ? text.length() - 1 : Math.min(previousEnd,
                    text.length() - 1));
            SqlScanner.Buffer buffer = new SqlScanner.Buffer();
            SqlScanner.Stop stop = scanner.scan(buffer);
            previousEnd = scanner.position();
            Command.Sql sql = SqlCommands.of(source, buffer);
            if (sql != null) {
                commands.add(sql);
            }
            if (stop == SqlScanner.Stop.BACKSLASH) {
                int backslash = scanner.position() - 1;
                MetaLexer lexer = new MetaLexer(text, scanner.position());
                MetaCommandParser.Parsed parsed = metaCommands.parse(backslash, lexer);
                scanner.moveTo(lexer.position());
                previousEnd = lexer.position();
                if (parsed != null && parsed.results() != null) {
                    attachResults(name, commands, parsed.results(), gsetErrorLine);
                } else if (parsed != null) {
                    commands.add(parsed.command());
                }
            }
            if (stop == SqlScanner.Stop.END) {
                break;
            }
        }
        if (commands.isEmpty()) {
            throw ScriptFileException.of("empty command list for script \"" + name + "\"");
        }
        return new Script(name, weight, Conditionals.resolve(name, commands));
    }

    /**
     * Reads and parses the script file {@code fileName} as {@code pgbench -f fileName} does; the script is named
     * {@code fileName}. The file is read as UTF-8, malformed bytes as U+FFFD (pgbench takes any bytes).
     *
     * @throws ScriptFileException also for a file that cannot be read ({@code could not open file "x": No such
     *     file or directory})
     */
    public static Script parseFile(String fileName, int weight) {
        if (fileName.isEmpty()) {
            throw ScriptFileException.of("could not open file \"\": No such file or directory");
        }
        Path path = Path.of(fileName);
        if (Files.isDirectory(path)) {
            throw ScriptFileException.of("could not read file \"" + fileName + "\": Is a directory");
        }
        String text;
        try {
            text = new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw ScriptFileException.of("could not open file \"" + fileName + "\": No such file or directory");
        } catch (AccessDeniedException e) {
            throw ScriptFileException.of("could not open file \"" + fileName + "\": Permission denied");
        } catch (IOException e) {
            throw ScriptFileException.of("could not read file \"" + fileName + "\": " + e.getMessage());
        }
        return parse(fileName, text, weight);
    }

    /**
     * Refuses, as pgbench does once every script is read, an SQL command with more than
     * {@link SqlText#MAX_PARAMETERS} variable references in extended and prepared modes
     * ({@code statement has too many arguments (maximum is 255): <the command's whole text>}, no file or line);
     * the simple protocol has no limit.
     */
    public static void checkQueryMode(Script script, QueryMode mode) {
        if (mode == QueryMode.SIMPLE) {
            return;
        }
        for (Command c : script.commands()) {
            if (c instanceof Command.Sql sql && sql.text().parameterCount() > SqlText.MAX_PARAMETERS) {
                throw ScriptFileException.of("statement has too many arguments (maximum is "
                        + SqlText.MAX_PARAMETERS + "): " + sql.text().text());
            }
        }
    }

    /**
     * Joins a {@code \gset} or {@code \aset} to the command before it, which must be an SQL command without one.
     * pgbench 15's message names the command before only when it is a meta-command, and always says {@code \gset}.
     *
     * <p>Its line is not the {@code \gset}'s: pgbench 15 takes it where its scan of the script stood when it
     * started looking for the command that ended with the {@code \gset}: the line where the previous SQL command's
     * {@code ;} or the previous meta-command's newline left it (the line after that meta-command), or, when the
     * {@code \gset} ends the script's first command, the line of the script's last character.
     */
    private static void attachResults(String name, List<Command> commands, ResultVariables results, int errorLine) {
        String message = "\\gset must follow an SQL command";
        if (commands.isEmpty()) {
            throw ScriptFileException.syntaxError(name, errorLine, null, null, message, null, -1);
        }
        Command previous = commands.get(commands.size() - 1);
        if (!(previous instanceof Command.Sql sql) || sql.results() != null) {
            String more = previous instanceof Command.Meta ? previous.display() : null;
            throw ScriptFileException.syntaxError(name, errorLine, null, null, message, more, -1);
        }
        commands.set(commands.size() - 1, sql.withResults(results));
    }
}
