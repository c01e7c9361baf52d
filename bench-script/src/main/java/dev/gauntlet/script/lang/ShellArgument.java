package dev.gauntlet.script.lang;

/**
 * A word of a {@code \shell} or {@code \setshell} command line, as pgbench 15's {@code runShellCommand} reads it:
 * a word starting with exactly one colon is a variable's value ({@code :name}), a word starting with two colons is
 * the literal text after its first colon ({@code ::x} is {@code :x}), any other word is itself. pgbench knows no
 * quotes here: words are split at whitespace, and the command run is the words (substituted) joined by one space
 * each, so {@code "a  b"} (two spaces, in double quotes) reaches the shell as {@code "a b"}. The whole line must stay
 * under 255 bytes ({@code "%s: shell command is too long"}), and an undefined variable is an error naming the word
 * ({@code "%s: undefined variable \"%s\""} with the command's first word and {@code :name}).
 *
 * @param word the word as written
 * @param variable whether the word is a variable's value
 * @param value the variable's name when {@code variable}, otherwise the text to use
 */
public record ShellArgument(String word, boolean variable, String value) {

    /** Reads a word as pgbench does. */
    public static ShellArgument of(String word) {
        if (!word.startsWith(":")) {
            return new ShellArgument(word, false, word);
        }
        if (word.startsWith("::")) {
            return new ShellArgument(word, false, word.substring(1));
        }
        return new ShellArgument(word, true, word.substring(1));
    }
}
