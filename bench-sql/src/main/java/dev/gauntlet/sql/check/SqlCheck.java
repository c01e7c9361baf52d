package dev.gauntlet.sql.check;

/**
 * One invariant of a workload's data, as a query for the rows that violate it: zero rows means it holds.
 * Stating each invariant as "show me the offenders" (rather than "count the offenders") lets a failure
 * name the first offending row with the values that disagree, which is what a person debugging a
 * transaction bug needs first. {@link SqlChecks} runs a table of them in one snapshot.
 *
 * @param name                  the check's name in results and reports, e.g.
 *                              {@code 3.3.2.1 w_ytd = sum(d_ytd) per warehouse}
 * @param violations            a SELECT for the violating rows; its column labels become {@code label=value}
 *                              in the detail, so they are chosen to read well ({@code "sum(d_ytd)"})
 * @param rowKey                the columns of {@code violations} that name a row ({@code w_id, d_id}), in
 *                              the order that makes the "first" violation stable from run to run
 * @param expensive             true when the query scans or joins whole large tables, so it is skipped
 *                              unless asked for
 * @param validOnlyOnLoadedData true when the invariant holds only for the data as loaded and fails
 *                              legitimately once the workload has changed it in some way
 */
public record SqlCheck(String name, String violations, String rowKey, boolean expensive,
        boolean validOnlyOnLoadedData) {

    /** Violating rows fetched: enough to describe the first and count them all, never a whole table. */
    static final int ROWS_SHOWN = 5;

    /** The label of the column {@link #query()} adds with the total number of violating rows. */
    static final String COUNT_COLUMN = "violation_count";

    /**
     * The statement actually run: the first {@value #ROWS_SHOWN} violations in key order, each carrying the
     * total count (a window over the whole result, so the violations are not computed twice).
     */
    public String query() {
        return "SELECT v.*, count(*) OVER () AS " + COUNT_COLUMN + " FROM (" + violations + ") AS v ORDER BY "
                + rowKey + " LIMIT " + ROWS_SHOWN;
    }
}
