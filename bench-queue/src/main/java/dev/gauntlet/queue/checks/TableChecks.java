package dev.gauntlet.queue.checks;

import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.sql.check.SqlCheck;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code check} can verify from the tables alone, without a run's ledger: the log is gapless and every group's
 * committed offset lies within it; a queue's archive and queue hold no message twice.
 */
public final class TableChecks {

    private TableChecks() {
    }

    public static List<SqlCheck> pubsub(int partitions) {
        List<SqlCheck> checks = new ArrayList<>(DeliveryChecks.table(new WorkerShare.Range(0, partitions)));
        checks.add(SqlCheck.named("every committed offset lies between the retained start and the tip")
                .violations("SELECT o.grp + 1 AS \"group\", o.partition, o.next_offset AS committed, "
                        + "r.first_offset AS first, t.next_offset AS tip FROM consumer_offsets o "
                        + "JOIN log_tip t USING (partition) JOIN log_retention r USING (partition) "
                        + "WHERE o.next_offset > t.next_offset OR o.next_offset < r.first_offset")
                .rowKey("\"group\", partition").build());
        return checks;
    }

    /** @param archived whether the queue acknowledges by moving messages to {@code queue_archive} */
    public static List<SqlCheck> queue(boolean archived) {
        List<SqlCheck> checks = new ArrayList<>();
        checks.add(SqlCheck.named("no message id queued twice")
                .violations("SELECT id, count(*) AS copies FROM queue_messages GROUP BY id HAVING count(*) > 1")
                .rowKey("id").build());
        if (archived) {
            checks.add(SqlCheck.named("no message both queued and archived")
                    .violations("SELECT id FROM queue_messages JOIN queue_archive USING (id)").rowKey("id").build());
        }
        return checks;
    }
}
