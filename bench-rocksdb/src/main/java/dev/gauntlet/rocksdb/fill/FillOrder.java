package dev.gauntlet.rocksdb.fill;

import dev.gauntlet.core.cli.BadInputException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The order keys are written in, named as db_bench names its benchmarks. */
public enum FillOrder {
    /** Keys 0..num-1 in ascending order. */
    SEQ("fillseq"),
    /** Keys drawn uniformly from [0, num) with replacement, so some are overwritten and about 37% never written. */
    RANDOM("fillrandom");

    private final String benchmark;

    FillOrder(String benchmark) {
        this.benchmark = benchmark;
    }

    /** The db_bench benchmark name, e.g. {@code fillseq}. */
    public String benchmark() {
        return benchmark;
    }

    public static FillOrder ofBenchmark(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (FillOrder o : values()) {
            if (o.benchmark.equals(n)) {
                return o;
            }
        }
        throw new BadInputException("unknown benchmark '" + name + "'; choose from "
                + Arrays.stream(values()).map(FillOrder::benchmark).collect(Collectors.joining(", ")));
    }
}
