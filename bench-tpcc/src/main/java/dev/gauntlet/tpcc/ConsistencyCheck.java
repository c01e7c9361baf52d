package dev.gauntlet.tpcc;

/**
 * One consistency condition of clause 3.3.2, as a query for the rows that violate it: zero rows means the
 * condition holds. Stating each condition as "show me the offenders" (rather than cockroach's "count the
 * offenders") lets a failure name the first offending warehouse, district, order or customer with the
 * values that disagree, which is what a person debugging a transaction bug needs first.
 *
 * @param number      the clause number, {@code 3.3.2.1} to {@code 3.3.2.12}
 * @param description the relationship, in the schema's column names
 * @param expensive   true when the check joins per order or per customer over whole tables, so it is skipped
 *                    unless asked for (as in cockroach {@code workload check tpcc})
 * @param loadOnly    true when the condition holds only for the data as loaded with respect to deliveries and
 *                    fails legitimately once a Delivery has run (3.3.2.11)
 * @param violations  a SELECT for the violating rows; its column labels become {@code label=value} in the
 *                    detail, so they are chosen to read well ({@code "sum(d_ytd)"})
 * @param rowKey      the columns of {@code violations} that name a row ({@code w_id, d_id}), for a stable
 *                    "first" violation
 */
public record ConsistencyCheck(String number, String description, boolean expensive, boolean loadOnly,
        String violations, String rowKey) {

    /** Violating rows fetched: enough to describe the first and count them all, never a whole table. */
    static final int ROWS_SHOWN = 5;

    /** The label of the column {@link #query()} adds with the total number of violating rows. */
    static final String COUNT_COLUMN = "violation_count";

    /** The check's name in results and reports, e.g. {@code 3.3.2.1 w_ytd = sum(d_ytd) per warehouse}. */
    public String name() {
        return number + " " + description;
    }

    /**
     * The statement actually run: the first {@value #ROWS_SHOWN} violations in key order, each carrying the
     * total count (a window over the whole result, so the violations are not computed twice).
     */
    public String query() {
        return "SELECT v.*, count(*) OVER () AS " + COUNT_COLUMN + " FROM (" + violations + ") AS v ORDER BY "
                + rowKey + " LIMIT " + ROWS_SHOWN;
    }
}
