package dev.gauntlet.core.cli;

import dev.gauntlet.core.result.Check;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** Checks as a {@code check} command prints them: one aligned line each, then a verdict line. */
public final class CheckTable {

    private CheckTable() {
    }

    /** One aligned line per check: {@code PASS  3.3.2.1 w_ytd = sum(d_ytd) per warehouse  (detail)}. */
    public static void print(PrintStream out, List<Check> checks) {
        int width = checks.stream().mapToInt(k -> k.name().length()).max().orElse(1);
        for (Check k : checks) {
            String detail = k.detail() == null || k.detail().isEmpty() ? "" : "  (" + k.detail() + ")";
            out.println(String.format(Locale.ROOT, "%-4s  %-" + width + "s%s", k.status(), k.name(), detail).stripTrailing());
        }
    }

    /** {@code Consistency checks: PASS} or {@code Consistency checks: FAIL (2 of 12 failed)}. */
    public static String summary(String what, List<Check> checks) {
        long failed = checks.stream().filter(k -> k.status() == Check.Status.FAIL).count();
        return failed == 0 ? what + ": PASS" : what + ": FAIL (" + failed + " of " + checks.size() + " failed)";
    }
}
