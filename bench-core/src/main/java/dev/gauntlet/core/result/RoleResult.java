package dev.gauntlet.core.result;

/**
 * One kind of client over the measured phase: its pacing, how many operations it issued (committed or failed) and
 * how many that fell due it never issued.
 *
 * @param rate                open-loop rate asked for, operations per second; 0 for a closed-loop role
 * @param issued              operations the role's clients ran to an end (committed or failed) in the measured phase
 * @param unissued            operations due before the end that never ran (see {@link OperationResult#unissued()})
 * @param issuedPerSecond     {@code issued} over the measured seconds
 */
public record RoleResult(String name, int clients, double rate, long issued, long unissued, double issuedPerSecond) {

    public boolean openLoop() {
        return rate > 0;
    }
}
