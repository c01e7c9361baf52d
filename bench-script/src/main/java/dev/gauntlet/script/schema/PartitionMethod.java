package dev.gauntlet.script.schema;

import java.util.Locale;

/** How {@code pgbench_accounts} is partitioned ({@code --partition-method}), as pgbench names the methods. */
public enum PartitionMethod {
    /** Not partitioned. */
    NONE,
    /** {@code partition by range (aid)}: contiguous aid ranges, open-ended at both ends. */
    RANGE,
    /** {@code partition by hash (aid)}: modulus the partition count, remainders 0..N-1. */
    HASH;

    /** The method as pgbench's option and its DDL spell it: {@code range}, {@code hash} (and {@code none}). */
    public String spelling() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * {@code --partition-method}'s value, case-insensitive as pgbench reads it.
     *
     * @throws IllegalArgumentException with pgbench's message for anything but range and hash
     */
    public static PartitionMethod parse(String value) {
        if ("range".equalsIgnoreCase(value)) {
            return RANGE;
        }
        if ("hash".equalsIgnoreCase(value)) {
            return HASH;
        }
        throw new IllegalArgumentException("invalid partition method, expecting \"range\" or \"hash\", got: \""
                + value + "\"");
    }

    /**
     * The method of {@code pg_partitioned_table.partstrat} as pgbench reads it back: none for null (not
     * partitioned), {@code r} range, {@code h} hash.
     *
     * @throws IllegalStateException with pgbench's message for another strategy (list)
     */
    static PartitionMethod ofStrategy(String partstrat) {
        if (partstrat == null) {
            return NONE;
        }
        return switch (partstrat) {
            case "r" -> RANGE;
            case "h" -> HASH;
            default -> throw new IllegalStateException("unexpected partition method: \"" + partstrat + "\"");
        };
    }
}
