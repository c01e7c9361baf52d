package dev.gauntlet.script.pgbench;

import java.util.ArrayList;
import java.util.List;

/**
 * GNU {@code getopt_long} as pgbench's command line goes through it (glibc, permuting: options may follow the
 * database name; {@code --} ends the options): short options clustered ({@code -nS}, {@code -c8}), a short option's
 * argument in the same word or the next, long options as {@code --name=value} or {@code --name value}, a long option
 * named by any unambiguous prefix of it ({@code --cli 4}). Its complaints are glibc's, word for word
 * ({@code pgbench: invalid option -- 'x'}); the caller adds pgbench's hint.
 */
public final class Getopt {

    /** A long option: its name, whether it takes an argument, and the code it stands for (a short option's letter). */
    public record LongOption(String name, boolean takesArgument, int code) {
    }

    /** One option as given: its code and its argument (null for a flag). */
    public record Given(int code, String argument) {
    }

    /** The options in the order given, the other words in theirs; or the complaint that stopped the parse. */
    public record Parsed(List<Given> options, List<String> operands, String complaint) {
    }

    private final String program;
    private final String shortOptions;
    private final List<LongOption> longOptions;

    /**
     * @param program the name the complaints start with ({@code pgbench})
     * @param shortOptions getopt's option string: each letter, followed by {@code :} when it takes an argument
     * @param longOptions the long options
     */
    public Getopt(String program, String shortOptions, List<LongOption> longOptions) {
        this.program = program;
        this.shortOptions = shortOptions;
        this.longOptions = List.copyOf(longOptions);
    }

    /** Goes through {@code args} as getopt_long does, stopping at the first complaint as pgbench does. */
    public Parsed parse(List<String> args) {
        List<Given> options = new ArrayList<>();
        List<String> operands = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                operands.addAll(args.subList(i + 1, args.size()));
                break;
            }
            if (a.startsWith("--")) {
                String body = a.substring(2);
                int eq = body.indexOf('=');
                String name = eq < 0 ? body : body.substring(0, eq);
                Object found = longOption(name, body);
                if (found instanceof String complaint) {
                    return new Parsed(options, operands, complaint);
                }
                LongOption o = (LongOption) found;
                if (!o.takesArgument()) {
                    if (eq >= 0) {
                        return new Parsed(options, operands,
                                program + ": option '--" + o.name() + "' doesn't allow an argument");
                    }
                    options.add(new Given(o.code(), null));
                } else if (eq >= 0) {
                    options.add(new Given(o.code(), body.substring(eq + 1)));
                } else if (i + 1 < args.size()) {
                    options.add(new Given(o.code(), args.get(++i)));
                } else {
                    return new Parsed(options, operands, program + ": option '--" + o.name() + "' requires an argument");
                }
            } else if (a.startsWith("-") && a.length() > 1) {
                for (int k = 1; k < a.length(); k++) {
                    char c = a.charAt(k);
                    int at = c == ':' ? -1 : shortOptions.indexOf(c);
                    if (at < 0) {
                        return new Parsed(options, operands, program + ": invalid option -- '" + c + "'");
                    }
                    boolean takes = at + 1 < shortOptions.length() && shortOptions.charAt(at + 1) == ':';
                    if (!takes) {
                        options.add(new Given(c, null));
                        continue;
                    }
                    if (k + 1 < a.length()) {
                        options.add(new Given(c, a.substring(k + 1)));
                    } else if (i + 1 < args.size()) {
                        options.add(new Given(c, args.get(++i)));
                    } else {
                        return new Parsed(options, operands, program + ": option requires an argument -- '" + c + "'");
                    }
                    break;
                }
            } else {
                operands.add(a);
            }
        }
        return new Parsed(options, operands, null);
    }

    /** The long option {@code name} names exactly or as the prefix of one only; else glibc's complaint. */
    private Object longOption(String name, String word) {
        List<LongOption> prefixed = new ArrayList<>();
        for (LongOption o : longOptions) {
            if (o.name().equals(name)) {
                return o;
            }
            if (o.name().startsWith(name)) {
                prefixed.add(o);
            }
        }
        if (prefixed.isEmpty() || name.isEmpty()) {
            return program + ": unrecognized option '--" + word + "'";
        }
        boolean same = prefixed.stream().allMatch(o -> o.code() == prefixed.get(0).code()
                && o.takesArgument() == prefixed.get(0).takesArgument());
        if (same) {
            return prefixed.get(0);
        }
        StringBuilder b = new StringBuilder(program).append(": option '--").append(word)
                .append("' is ambiguous; possibilities:");
        prefixed.forEach(o -> b.append(" '--").append(o.name()).append('\''));
        return b.toString();
    }
}
