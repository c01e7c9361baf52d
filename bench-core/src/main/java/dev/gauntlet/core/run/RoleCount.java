package dev.gauntlet.core.run;

import java.util.concurrent.atomic.LongAdder;

/**
 * What one role issued: every operation its clients ended (workers count), of which the interval accounts take the
 * measured share interval by interval, as they do the operations' counts; and what it left unissued.
 */
final class RoleCount {

    final String name;
    final LongAdder issued = new LongAdder();
    final LongAdder unissued = new LongAdder();
    /** The interval accounts' only: the issued count at the last interval's close, and the measured share. */
    long issuedBefore;
    long issuedMeasured;

    RoleCount(String name) {
        this.name = name;
    }
}
