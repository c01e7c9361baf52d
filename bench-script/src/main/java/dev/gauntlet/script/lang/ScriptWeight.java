package dev.gauntlet.script.lang;

/**
 * A {@code -f FILE[@W]} or {@code -b NAME[@W]} option's script and weight, read as pgbench 15's
 * {@code parseScriptWeight} reads them.
 *
 * <p>The weight follows the <em>last</em> {@code @}: {@code a@b.sql} is script {@code a} with the invalid weight
 * {@code b.sql}, so a file whose name holds an {@code @} needs an explicit weight ({@code a@b.sql@1}). The weight is
 * read as C's {@code strtol}: leading whitespace and a sign are allowed, nothing may follow the digits. Without an
 * {@code @} the weight is 1.
 *
 * @param script the file or built-in name
 * @param weight 0 to {@link Integer#MAX_VALUE}
 */
public record ScriptWeight(String script, int weight) {

    /**
     * Reads an option's value; refused with pgbench's {@code invalid weight specification: @x} (no digits, junk
     * after them, or beyond a 64-bit long) or {@code weight specification out of range (0 .. 2147483647): -1}.
     */
    public static ScriptWeight parse(String option) {
        int at = option.lastIndexOf('@');
        if (at < 0) {
            return new ScriptWeight(option, 1);
        }
        String spec = option.substring(at + 1);
        long value = strtol(spec, option.substring(at));
        if (value > Integer.MAX_VALUE || value < 0) {
            throw ScriptFileException.of("weight specification out of range (0 .. " + Integer.MAX_VALUE + "): "
                    + value);
        }
        return new ScriptWeight(option.substring(0, at), (int) value);
    }

    /** C's {@code strtol(spec, &end, 10)} that must read the whole of {@code spec} without overflow. */
    private static long strtol(String spec, String shown) {
        int i = 0;
        while (i < spec.length() && " \t\n\r\f\u000b".indexOf(spec.charAt(i)) >= 0) {
            i++;
        }
        boolean negative = false;
        if (i < spec.length() && (spec.charAt(i) == '+' || spec.charAt(i) == '-')) {
            negative = spec.charAt(i) == '-';
            i++;
        }
        int digits = i;
        long negated = 0;
        boolean overflow = false;
        for (; i < spec.length() && spec.charAt(i) >= '0' && spec.charAt(i) <= '9'; i++) {
            int d = spec.charAt(i) - '0';
            if (negated < (Long.MIN_VALUE + d) / 10) {
                overflow = true;
            } else {
                negated = negated * 10 - d;
            }
        }
        if (!negative && negated == Long.MIN_VALUE) {
            overflow = true;
        }
        if (overflow || i == digits || i != spec.length()) {
            throw ScriptFileException.of("invalid weight specification: " + shown);
        }
        return negative ? negated : -negated;
    }
}
