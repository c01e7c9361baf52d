package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One kind of client over the measured phase: its pacing, how many operations it issued (committed or failed) and
 * how many that fell due it never issued.
 *
 * @param rate                open-loop rate asked for, operations per second; 0 for a closed-loop role
 * @param issued              operations the role's clients ran to an end (committed or failed) in the measured phase
 * @param unissued            operations due before the end that never ran (see {@link OperationResult#unissued()})
 * @param issuedPerSecond     {@code issued} over the measured seconds
 * @param after               the role this one waited for (every client of it finished an operation), or null
 * @param startedAt           seconds into the run when a waiting role started; null when it never did (or never
 *                            waited)
 */
public record RoleResult(String name, int clients, double rate, long issued, long unissued, double issuedPerSecond,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String after,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Double startedAt) {

    /** A role that started with the run. */
    public RoleResult(String name, int clients, double rate, long issued, long unissued, double issuedPerSecond) {
        this(name, clients, rate, issued, unissued, issuedPerSecond, null, null);
    }

    public boolean openLoop() {
        return rate > 0;
    }
}
