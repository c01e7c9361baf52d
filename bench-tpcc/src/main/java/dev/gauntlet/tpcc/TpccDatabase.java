package dev.gauntlet.tpcc;

/** Names shared by the commands. */
final class TpccDatabase {
    /** The embedded server's database for this workload. */
    static final String NAME = "tpcc";

    private TpccDatabase() {
    }
}
