package dev.gauntlet.core.result;

/** Where a run happened: enough to tell whether two results are comparable. */
public record Environment(String jvm, String os, int cpus, long maxHeapBytes, String host, String database,
                          String databaseUrl) {
}
