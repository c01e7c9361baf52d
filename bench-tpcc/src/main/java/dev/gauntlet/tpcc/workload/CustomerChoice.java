package dev.gauntlet.tpcc.workload;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * How Payment and Order-Status pick their customer (clause 2.5.1.2, 2.6.1.2): 60% by last name, taking
 * the one in the middle of those with that name ordered by first name, 40% by id.
 */
public record CustomerChoice(int warehouse, int district, String lastName, int id) {

    /** Clauses 2.5.1.2 and 2.6.1.2: the share of customers chosen by last name. */
    public static final int BY_LAST_NAME_PERCENT = 60;

    static CustomerChoice random(int warehouse, int district, NURandConstants constants, TpccRandom r) {
        if (r.uniform(1, 100) <= BY_LAST_NAME_PERCENT) {
            return new CustomerChoice(warehouse, district, r.lastName(constants), 0);
        }
        return new CustomerChoice(warehouse, district, null, r.customerId(constants));
    }

    boolean byLastName() {
        return lastName != null;
    }

    /**
     * A query for the chosen customer's {@code columns}, to nest in a statement that reads more in the same
     * snapshot; {@link #bind} sets its parameters. By name it is the one at position
     * ceil(n/2) by first name, written {@code 2 * position - n IN (0, 1)} because CockroachDB divides integers
     * into decimals.
     */
    static String rowQuery(boolean byLastName, String columns) {
        if (!byLastName) {
            return "SELECT " + columns + " FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
        }
        return "SELECT " + columns + " FROM (SELECT " + columns + ", row_number() OVER (ORDER BY c_first, c_id) "
                + "AS position, count(*) OVER () AS namesakes FROM customer "
                + "WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?) AS named WHERE 2 * position - namesakes IN (0, 1)";
    }

    /** Sets the parameters of {@link #rowQuery} from {@code index} on; returns the next free index. */
    int bind(PreparedStatement s, int index) throws SQLException {
        s.setInt(index, warehouse);
        s.setInt(index + 1, district);
        if (byLastName()) {
            s.setString(index + 2, lastName);
        } else {
            s.setInt(index + 2, id);
        }
        return index + 3;
    }

    @Override
    public String toString() {
        return warehouse + "/" + district + "/" + (byLastName() ? lastName : Integer.toString(id));
    }
}
