package dev.gauntlet.queue.figures;

import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import java.util.Locale;

/**
 * What the setup costs a year, and per MiB/s of writes it sustained, as the seed priced its server: the instance
 * by the hour ({@value #HOURS_PER_YEAR} hours a year) and the disk by the GB-month. Metrics in the result's
 * {@code cost} section, and one printed line.
 *
 * @param perHour            the server's price per hour
 * @param storageGb          provisioned disk, GB (0: none priced)
 * @param storagePerGbMonth  its price per GB-month
 */
public record Cost(double perHour, double storageGb, double storagePerGbMonth) {

    public static final int HOURS_PER_YEAR = 8760;

    public double serverPerYear() {
        return perHour * HOURS_PER_YEAR;
    }

    public double storagePerYear() {
        return storageGb * storagePerGbMonth * 12;
    }

    public double perYear() {
        return serverPerYear() + storagePerYear();
    }

    /** The yearly cost of each MiB/s written; infinite when nothing was written. */
    public double perYearPerMiBPerSecond(double writeMiBPerSecond) {
        return writeMiBPerSecond > 0 ? perYear() / writeMiBPerSecond : Double.POSITIVE_INFINITY;
    }

    /** The {@code cost.*} metrics, priced against the writes sustained. */
    public void addTo(Metrics m, double writeMiBPerSecond) {
        m.add("cost.serverPerYear", serverPerYear(), MetricInfo.neither());
        m.add("cost.storagePerYear", storagePerYear(), MetricInfo.neither());
        m.add("cost.perYear", perYear(), MetricInfo.lower());
        if (writeMiBPerSecond > 0) {
            m.add("cost.perYearPerWriteMiBPerSecond", perYearPerMiBPerSecond(writeMiBPerSecond), MetricInfo.lower());
        }
    }

    /** {@code Cost: $1,034 a year ($1,034 server, $0 storage), $210 a year per MiB/s written (4.92 MiB/s)}. */
    public String line(double writeMiBPerSecond) {
        return String.format(Locale.ROOT, "Cost: $%,.0f a year ($%,.0f server, $%,.0f storage), %s", perYear(),
                serverPerYear(), storagePerYear(), writeMiBPerSecond > 0
                        ? String.format(Locale.ROOT, "$%,.0f a year per MiB/s written (%.2f MiB/s)",
                        perYearPerMiBPerSecond(writeMiBPerSecond), writeMiBPerSecond)
                        : "nothing written to price per MiB/s");
    }
}
