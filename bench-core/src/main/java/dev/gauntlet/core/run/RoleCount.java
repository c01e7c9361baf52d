package dev.gauntlet.core.run;

import java.util.concurrent.atomic.LongAdder;

/**
 * What one role issued in measured intervals (from its own stats, interval by interval, as the operations' counts)
 * and what it left unissued.
 */
final class RoleCount {

    final String name;
    final LongAdder unissued = new LongAdder();
    /**
     * The interval accounts' only: operations the role's clients ended in measured intervals, counted from its own
     * stats in each interval's snapshots (so a role's figure and its operations' never disagree).
     */
    long issuedMeasured;

    RoleCount(String name) {
        this.name = name;
    }
}
