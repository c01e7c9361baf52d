package dev.gauntlet.sql.check;

import java.util.Objects;

/**
 * One invariant of a workload's data, as a query for the rows that violate it: zero rows means it holds.
 * Stating each invariant as "show me the offenders" (rather than "count the offenders") lets a failure
 * name the first offending row with the values that disagree, which is what a person debugging a
 * transaction bug needs first. {@link SqlChecks} runs a table of them in one snapshot.
 *
 * <p>Made with {@link #named(String)}, which says each part by name:
 *
 * <pre>{@code
 * SqlCheck.named("3.3.2.6 o_ol_cnt = count(order_line) per order")
 *         .violations("SELECT ...")
 *         .rowKey("w_id, d_id, o_id")
 *         .expensive()
 *         .build();
 * }</pre>
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

    /** A check called {@code name}, to be given its violations query and row key; cheap and always valid. */
    public static Builder named(String name) {
        return new Builder(name);
    }

    /**
     * The statement actually run: the first {@value #ROWS_SHOWN} violations in key order, each carrying the
     * total count (a window over the whole result, so the violations are not computed twice).
     */
    public String query() {
        return "SELECT v.*, count(*) OVER () AS " + COUNT_COLUMN + " FROM (" + violations + ") AS v ORDER BY "
                + rowKey + " LIMIT " + ROWS_SHOWN;
    }

    /**
     * A {@link SqlCheck} under construction. {@link #violations(String)} and {@link #rowKey(String)} must be given;
     * a check is cheap and valid on any data unless {@link #expensive()} or {@link #validOnlyOnLoadedData()} says
     * otherwise.
     */
    public static final class Builder {

        private final String name;
        private String violations;
        private String rowKey;
        private boolean expensive;
        private boolean validOnlyOnLoadedData;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /** The SELECT for the violating rows (see {@link SqlCheck#violations()}). */
        public Builder violations(String select) {
            this.violations = select;
            return this;
        }

        /** The columns that name a violating row, in a stable order (see {@link SqlCheck#rowKey()}). */
        public Builder rowKey(String columns) {
            this.rowKey = columns;
            return this;
        }

        /** The query scans or joins whole large tables: skipped unless the run asks for expensive checks. */
        public Builder expensive() {
            return expensive(true);
        }

        /** {@link #expensive()} when {@code expensive}, for tables that say it in a column. */
        public Builder expensive(boolean expensive) {
            this.expensive = expensive;
            return this;
        }

        /** The invariant holds only on the data as loaded: skipped once the workload has changed it. */
        public Builder validOnlyOnLoadedData() {
            return validOnlyOnLoadedData(true);
        }

        /** {@link #validOnlyOnLoadedData()} when {@code validOnlyOnLoadedData}, for tables that say it in a column. */
        public Builder validOnlyOnLoadedData(boolean validOnlyOnLoadedData) {
            this.validOnlyOnLoadedData = validOnlyOnLoadedData;
            return this;
        }

        /** @throws IllegalStateException when the violations query or the row key is missing */
        public SqlCheck build() {
            if (violations == null || rowKey == null) {
                throw new IllegalStateException("check '" + name + "' needs " + (violations == null
                        ? "its violations query" : "its row key"));
            }
            return new SqlCheck(name, violations, rowKey, expensive, validOnlyOnLoadedData);
        }
    }
}
