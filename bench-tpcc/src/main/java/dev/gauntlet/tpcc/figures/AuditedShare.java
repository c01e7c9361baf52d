package dev.gauntlet.tpcc.figures;

import dev.gauntlet.core.result.Check;
import java.util.Locale;

/**
 * A share of what a run did that the mix audit judges (clauses 5.2.3 and 9.2.2.5), e.g. New-Order rollbacks
 * out of New-Orders. The spec's band holds for runs of hours; a shorter correct run strays out of it by chance
 * alone, so the share also passes inside the {@link BinomialInterval} around the share the workload draws,
 * which fails a correct run at most 1 time in 100,000 ({@link #FALSE_ALARMS}): the audit judges nine such shares, so a
 * correct run fails the whole audit at most 1 time in 10,000 (at 1 in 1,000 a share, about 1 correct run in 200
 * failed somewhere, and a CI that makes forty short runs failed every few days). A sample too small for that interval to exclude "none"
 * and "all" is SKIP: the test would then accept a workload that never did the thing. A sample larger than the
 * interval can count ({@link BinomialInterval#MOST_TRIALS}) comes from a run of many hours: the band alone judges it.
 *
 * @param name         the check's name, e.g. {@code 9.2.2 New-Order rollbacks}
 * @param what         the share in the detail, e.g. {@code rollbacks}
 * @param of           what it is a share of, plural, e.g. {@code New-Orders}
 * @param drawnPercent the share the workload draws, e.g. 1.0
 * @param specLo       the spec's band, in percent
 * @param specHi       its upper end; 100 for a minimum only
 */
record AuditedShare(String name, String what, String of, double drawnPercent, double specLo, double specHi) {

    /** How often a correct run falls outside one share's interval, at most. */
    static final double FALSE_ALARMS = 0.00001;

    /** How details name the interval. */
    static final String INTERVAL = BinomialInterval.name(FALSE_ALARMS);

    Check judge(long part, long whole) {
        if (whole == 0) {
            return Check.skip(name, "no " + of + " ran");
        }
        double pct = 100.0 * part / whole;
        boolean inSpec = pct >= specLo && pct <= specHi;
        String spec = specHi >= 100 ? String.format(Locale.ROOT, "at least %.2f%%", specLo)
                : String.format(Locale.ROOT, "%.2f-%.2f%%", specLo, specHi);
        if (whole > BinomialInterval.MOST_TRIALS) {
            String detail = String.format(Locale.ROOT, "%s %.2f%% of %,d %s; accepted %s (spec; no %s past %,d %s)",
                    what, pct, whole, of, spec, INTERVAL, BinomialInterval.MOST_TRIALS, of);
            return inSpec ? Check.pass(name, detail) : Check.fail(name, detail);
        }
        BinomialInterval interval = BinomialInterval.around(drawnPercent / 100, whole, FALSE_ALARMS);
        if (interval.vacuous()) {
            return Check.skip(name, String.format(Locale.ROOT, "%,d %s are too few: the %s around the drawn %.2f%% "
                            + "(%.2f%%..%.2f%%) would accept none or all of them; needs at least %,d", whole, of,
                    INTERVAL, drawnPercent, interval.loPercent(), interval.hiPercent(),
                    BinomialInterval.leastMeaningfulSample(drawnPercent / 100, FALSE_ALARMS)));
        }
        boolean accepted = inSpec || interval.accepts(part);
        String detail = String.format(Locale.ROOT, "%s %.2f%% of %,d %s; accepted %.2f%%..%.2f%% (spec %s; %s around "
                        + "the drawn %.2f%%: %.2f%%..%.2f%%)", what, pct, whole, of,
                Math.min(specLo, interval.loPercent()), Math.max(specHi, interval.hiPercent()), spec,
                INTERVAL, drawnPercent, interval.loPercent(), interval.hiPercent());
        return accepted ? Check.pass(name, detail) : Check.fail(name, detail);
    }
}
