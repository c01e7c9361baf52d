package dev.gauntlet.script.pgbench;

import java.math.BigInteger;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Numbers in pgbench's options as C and PostgreSQL's front-end library read them. */
final class CNumbers {

    /** C's {@code atof}: the longest prefix that reads as a number, else 0. */
    private static final Pattern NUMBER_PREFIX =
            Pattern.compile("^\\s*[+-]?(?:inf(?:inity)?|nan|(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)",
                    Pattern.CASE_INSENSITIVE);
    private static final Pattern INT_PREFIX = Pattern.compile("^\\s*[+-]?\\d+");

    private CNumbers() {
    }

    /** PostgreSQL's {@code option_parse_int}: {@code strtol} with trailing white space allowed, then the range. */
    static int parseInt(String text, String option, int min, int max) {
        String t = text.stripTrailing();
        int i = 0;
        while (i < t.length() && Character.isWhitespace(t.charAt(i))) {
            i++;
        }
        int start = i;
        if (i < t.length() && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
            i++;
        }
        int digits = i;
        while (i < t.length() && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
            i++;
        }
        if (i == digits) {
            if (!t.isEmpty() && start < t.length()) {
                throw PgbenchExit.fatal("invalid value \"" + text + "\" for option " + option);
            }
            return outOfRange(0, option, min, max);
        }
        if (i != t.length()) {
            throw PgbenchExit.fatal("invalid value \"" + text + "\" for option " + option);
        }
        BigInteger v = new BigInteger(t.substring(start, i).replace("+", ""));
        if (v.bitLength() > 31) {
            throw PgbenchExit.fatal(option + " must be in range " + min + ".." + max);
        }
        return outOfRange(v.intValue(), option, min, max);
    }

    private static int outOfRange(int value, String option, int min, int max) {
        if (value < min || value > max) {
            throw PgbenchExit.fatal(option + " must be in range " + min + ".." + max);
        }
        return value;
    }

    /** C's {@code atof}. */
    static double atof(String text) {
        Matcher m = NUMBER_PREFIX.matcher(text);
        if (!m.find()) {
            return 0;
        }
        String n = m.group().strip().toLowerCase(Locale.ROOT);
        String sign = n.startsWith("-") ? "-" : "";
        String body = n.replaceFirst("^[+-]", "");
        if (body.startsWith("inf")) {
            return sign.isEmpty() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        }
        if (body.equals("nan")) {
            return Double.NaN;
        }
        return Double.parseDouble(sign + body);
    }

    /** C's {@code atoi} (values past an int wrap as glibc's do not matter here: they are refused or huge). */
    static int atoi(String text) {
        Matcher m = INT_PREFIX.matcher(text);
        if (!m.find()) {
            return 0;
        }
        BigInteger v = new BigInteger(m.group().strip().replace("+", ""));
        return v.intValue();
    }
}
