package dev.gauntlet.script.lang;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Numbers to text and back as pgbench does it through the C library (glibc, "C" locale) and PostgreSQL's
 * {@code snprintf}: {@code %.15g} and {@code %f} with {@code NaN}, {@code Infinity} and {@code -Infinity} spelled
 * as PostgreSQL spells them, {@code strtod} with glibc's range errors, and pgbench's own {@code strtoint64}.
 */
final class NumberText {

    /** Digits pgbench prints of a double ({@code DBL_DIG}). */
    static final int DOUBLE_DIGITS = 15;

    /** Below this (exactly 2^-1022 - 2^-1076) a value rounded to 53 bits is still subnormal: glibc's tininess. */
    private static final BigDecimal TINY = new BigDecimal(BigInteger.TWO.pow(54).subtract(BigInteger.ONE))
            .divide(new BigDecimal(BigInteger.TWO.pow(1076)));

    /** Exponents past which a conversion surely overflows or underflows (kept small enough for BigDecimal). */
    private static final long EXPONENT_CLAMP = 200_000;

    /** How a conversion ended, as pgbench tells them apart. */
    enum Status {
        /** The whole text was a number in range. */
        OK,
        /** The number was out of range ({@code ERANGE}). */
        OUT_OF_RANGE,
        /** The text was not (wholly) a number. */
        INVALID
    }

    /**
     * The result of a conversion.
     *
     * @param status      how it ended
     * @param doubleValue the double read (when a double was asked for)
     * @param longValue   the integer read (when an integer was asked for)
     */
    record Conversion(Status status, double doubleValue, long longValue) {
    }

    private NumberText() {
    }

    /**
     * C's {@code isspace} in the "C" locale.
     *
     * @param c a character
     * @return whether it is a space, tab, newline, vertical tab, form feed or carriage return
     */
    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000b' || c == '\f' || c == '\r';
    }

    /**
     * {@code printf("%.15g")} as pgbench prints doubles in {@code debug()} and into queries.
     *
     * @param d a double
     * @return its text, e.g. {@code 0.333333333333333}, {@code 1e+300}, {@code -0}, {@code NaN}, {@code -Infinity}
     */
    static String formatG(double d) {
        String special = special(d);
        if (special != null) {
            return special;
        }
        boolean negative = Double.doubleToRawLongBits(d) < 0;
        if (d == 0) {
            return negative ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(d).abs().round(new MathContext(DOUBLE_DIGITS, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        StringBuilder out = new StringBuilder(negative ? "-" : "");
        if (exponent < -4 || exponent >= DOUBLE_DIGITS) {
            String digits = stripZeros(rounded.unscaledValue().toString());
            out.append(digits.charAt(0));
            if (digits.length() > 1) {
                out.append('.').append(digits, 1, digits.length());
            }
            out.append('e').append(exponent < 0 ? '-' : '+');
            int magnitude = Math.abs(exponent);
            if (magnitude < 10) {
                out.append('0');
            }
            out.append(magnitude);
        } else {
            String fixed = rounded.setScale(Math.max(DOUBLE_DIGITS - 1 - exponent, 0), RoundingMode.HALF_EVEN)
                    .toPlainString();
            if (fixed.indexOf('.') >= 0) {
                fixed = stripZeros(fixed);
                if (fixed.endsWith(".")) {
                    fixed = fixed.substring(0, fixed.length() - 1);
                }
            }
            out.append(fixed);
        }
        return out.toString();
    }

    /**
     * {@code printf("%f")} as pgbench prints doubles in its error messages.
     *
     * @param d a double
     * @return its text with six decimals, e.g. {@code 1.500000}, {@code -0.000000}, {@code NaN}
     */
    static String formatF(double d) {
        String special = special(d);
        if (special != null) {
            return special;
        }
        String plain = new BigDecimal(d).abs().setScale(6, RoundingMode.HALF_EVEN).toPlainString();
        return Double.doubleToRawLongBits(d) < 0 ? "-" + plain : plain;
    }

    private static String special(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        return null;
    }

    private static String stripZeros(String digits) {
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        return digits.substring(0, end);
    }

    /**
     * pgbench's {@code strtoint64}: optional leading spaces, a sign, decimal digits, optional trailing spaces.
     *
     * @param text the text
     * @return the integer, or {@link Status#OUT_OF_RANGE} past 64 bits, or {@link Status#INVALID}
     */
    static Conversion toLong(String text) {
        int i = 0;
        int n = text.length();
        while (i < n && isSpace(text.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < n && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
            negative = text.charAt(i) == '-';
            i++;
        }
        if (i >= n || !isDigit(text.charAt(i))) {
            return new Conversion(Status.INVALID, 0, 0);
        }
        long accumulated = 0; // kept negative, as -9223372036854775808 has no positive twin
        while (i < n && isDigit(text.charAt(i))) {
            int digit = text.charAt(i++) - '0';
            if (accumulated < (Long.MIN_VALUE + digit) / 10) {
                return new Conversion(Status.OUT_OF_RANGE, 0, 0);
            }
            accumulated = accumulated * 10 - digit;
        }
        while (i < n && isSpace(text.charAt(i))) {
            i++;
        }
        if (i < n) {
            return new Conversion(Status.INVALID, 0, 0);
        }
        if (!negative) {
            if (accumulated == Long.MIN_VALUE) {
                return new Conversion(Status.OUT_OF_RANGE, 0, 0);
            }
            accumulated = -accumulated;
        }
        return new Conversion(Status.OK, 0, accumulated);
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(char c) {
        return Character.digit(c, 16) >= 0 && c < 128;
    }

    /**
     * pgbench's {@code strtodouble}: glibc's {@code strtod} over the whole text (leading spaces allowed, nothing
     * after the number), failing on {@code ERANGE} (overflow, or a result that is subnormal and inexact).
     *
     * @param text the text
     * @return the double, or why there is none
     */
    static Conversion toDouble(String text) {
        int n = text.length();
        int i = 0;
        while (i < n && isSpace(text.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < n && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
            negative = text.charAt(i) == '-';
            i++;
        }
        String rest = text.substring(i);
        double value;
        int end;
        boolean outOfRange = false;
        if (startsWithIgnoreCase(rest, "inf")) {
            end = i + (startsWithIgnoreCase(rest, "infinity") ? 8 : 3);
            value = Double.POSITIVE_INFINITY;
        } else if (startsWithIgnoreCase(rest, "nan")) {
            end = i + 3;
            if (end < n && text.charAt(end) == '(') {
                int j = end + 1;
                while (j < n && (Character.isLetterOrDigit(text.charAt(j)) && text.charAt(j) < 128
                        || text.charAt(j) == '_')) {
                    j++;
                }
                if (j < n && text.charAt(j) == ')') {
                    end = j + 1;
                }
            }
            value = Double.NaN;
        } else {
            Number number = rest.length() > 2 && rest.charAt(0) == '0' && (rest.charAt(1) == 'x' || rest.charAt(1) == 'X')
                    && (isHexDigit(rest.charAt(2)) || rest.length() > 3 && rest.charAt(2) == '.'
                    && isHexDigit(rest.charAt(3))) ? readHex(rest) : readDecimal(rest);
            if (number == null) {
                return new Conversion(Status.INVALID, 0, 0);
            }
            end = i + number.length;
            value = number.value;
            outOfRange = number.outOfRange;
        }
        if (outOfRange) {
            return new Conversion(Status.OUT_OF_RANGE, 0, 0);
        }
        if (end != n) {
            return new Conversion(Status.INVALID, 0, 0);
        }
        return new Conversion(Status.OK, negative ? -value : value, 0);
    }

    private static boolean startsWithIgnoreCase(String s, String prefix) {
        return s.length() >= prefix.length() && regionEqualsIgnoreAsciiCase(s, prefix, prefix.length());
    }

    /**
     * Whether the first {@code length} characters of a text are those of a lower-case ASCII word, in any case, as
     * PostgreSQL's {@code pg_strncasecmp} and glibc compare them (only ASCII letters fold).
     *
     * @param text   the text, at least {@code length} long
     * @param word   the word, lower case, at least {@code length} long
     * @param length how many characters to compare
     * @return whether they match
     */
    static boolean regionEqualsIgnoreAsciiCase(String text, String word, int length) {
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if ((c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** A number read from the front of a text: its magnitude, how many characters it took, whether ERANGE. */
    private record Number(double value, int length, boolean outOfRange) {
    }

    /** The digits of a mantissa from {@code from} (those after a point counted apart) and where they end. */
    private record Mantissa(String digits, int fractionDigits, int end) {

        static Mantissa read(String s, int from, java.util.function.IntPredicate digit) {
            int n = s.length();
            int i = from;
            StringBuilder digits = new StringBuilder();
            int fractionDigits = 0;
            while (i < n && digit.test(s.charAt(i))) {
                digits.append(s.charAt(i++));
            }
            if (i < n && s.charAt(i) == '.') {
                for (i++; i < n && digit.test(s.charAt(i)); i++) {
                    digits.append(s.charAt(i));
                    fractionDigits++;
                }
            }
            return new Mantissa(digits.toString(), fractionDigits, i);
        }
    }

    private static Number readDecimal(String s) {
        Mantissa m = Mantissa.read(s, 0, c -> isDigit((char) c));
        String digits = m.digits();
        int fractionDigits = m.fractionDigits();
        int i = m.end();
        if (digits.isEmpty()) {
            return null;
        }
        long exponent = 0;
        int afterExponent = readExponent(s, i, 'e');
        if (afterExponent > i) {
            exponent = parseClampedExponent(s.substring(i + 1, afterExponent));
            i = afterExponent;
        }
        BigInteger mantissa = new BigInteger(digits);
        long scale = fractionDigits - exponent;
        double value = Double.parseDouble(mantissa + "E" + (-scale));
        BigDecimal exact = mantissa.signum() == 0 || Math.abs(scale) > EXPONENT_CLAMP ? null
                : new BigDecimal(mantissa, Math.toIntExact(scale));
        return new Number(value, i, outOfRange(value, mantissa.signum() == 0, exact));
    }

    private static Number readHex(String s) {
        Mantissa m = Mantissa.read(s, 2, c -> isHexDigit((char) c));
        String digits = m.digits();
        int fractionDigits = m.fractionDigits();
        int i = m.end();
        long exponent = 0;
        int afterExponent = readExponent(s, i, 'p');
        if (afterExponent > i) {
            exponent = parseClampedExponent(s.substring(i + 1, afterExponent));
            i = afterExponent;
        }
        BigInteger mantissa = new BigInteger(digits, 16);
        long binaryExponent = exponent - 4L * fractionDigits;
        double value;
        BigDecimal exact = null;
        if (mantissa.signum() == 0) {
            value = 0;
        } else if (binaryExponent > EXPONENT_CLAMP) {
            value = Double.POSITIVE_INFINITY;
        } else if (binaryExponent < -EXPONENT_CLAMP) {
            value = 0;
        } else {
            value = Double.parseDouble("0x" + mantissa.toString(16) + "p" + binaryExponent);
            exact = binaryExponent >= 0 ? new BigDecimal(mantissa.shiftLeft((int) binaryExponent))
                    : new BigDecimal(mantissa).multiply(BigDecimal.ONE.divide(
                            new BigDecimal(BigInteger.TWO.pow((int) -binaryExponent))));
        }
        return new Number(value, i, outOfRange(value, mantissa.signum() == 0, exact));
    }

    /** The end of an exponent ({@code e}/{@code p}, a sign, digits) starting at {@code i}, or {@code i} if none. */
    private static int readExponent(String s, int i, char marker) {
        int n = s.length();
        if (i >= n || Character.toLowerCase(s.charAt(i)) != marker) {
            return i;
        }
        int j = i + 1;
        if (j < n && (s.charAt(j) == '+' || s.charAt(j) == '-')) {
            j++;
        }
        if (j >= n || !isDigit(s.charAt(j))) {
            return i;
        }
        while (j < n && isDigit(s.charAt(j))) {
            j++;
        }
        return j;
    }

    private static long parseClampedExponent(String text) {
        BigInteger value = new BigInteger(text.startsWith("+") ? text.substring(1) : text);
        BigInteger clamp = BigInteger.valueOf(EXPONENT_CLAMP * 4);
        return value.max(clamp.negate()).min(clamp).longValueExact();
    }

    /** glibc's ERANGE: an overflow to infinity, or a tiny (after rounding to 53 bits) inexact result. */
    private static boolean outOfRange(double value, boolean zeroInput, BigDecimal exact) {
        if (zeroInput) {
            return false;
        }
        if (Double.isInfinite(value)) {
            return true;
        }
        if (value > Double.MIN_NORMAL) {
            return false;
        }
        if (exact == null) {
            return true; // astronomically small: tiny and inexact
        }
        return exact.compareTo(TINY) < 0 && new BigDecimal(value).compareTo(exact) != 0;
    }
}
