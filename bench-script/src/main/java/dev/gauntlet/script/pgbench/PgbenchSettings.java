package dev.gauntlet.script.pgbench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a pgbench command line asked for, as {@link PgbenchArguments} read it; pgbench's defaults where it is silent. */
public final class PgbenchSettings {

    /** pgbench's {@code DEFAULT_NXACTS}: transactions a client runs when neither -t nor -T is given. */
    public static final int DEFAULT_TRANSACTIONS = 10;

    /** A script as named: a built-in (by its whole name) or a file, and its weight. */
    public record ScriptArgument(boolean builtin, String name, int weight) {

        /** As {@code run}'s -b or -f takes it. */
        public String argument() {
            return name + "@" + weight;
        }
    }

    boolean init;
    String initSteps;
    boolean initialization;
    boolean benchmarking;

    String host;
    String port;
    String username;
    String dbName;

    boolean noVacuum;
    boolean vacuumAll;
    boolean debug;
    int clients = 1;
    int jobs = 1;
    boolean connect;
    boolean perCommand;
    int scale = 1;
    boolean scaleGiven;
    int transactions;
    int time;
    boolean log;
    boolean quiet;
    final List<ScriptArgument> scripts = new ArrayList<>();
    final Map<String, String> defines = new LinkedHashMap<>();
    int fillfactor = 100;
    String protocol = "simple";
    int progress;
    Double rate;
    Double latencyLimitMs;
    boolean unloggedTables;
    String tablespace;
    String indexTablespace;
    double samplingRate;
    int aggregateInterval;
    boolean progressTimestamp;
    String logPrefix;
    boolean foreignKeys;
    Long seed;
    int partitions;
    String partitionMethod;
    boolean failuresDetailed;
    int maxTries = 1;
    boolean verboseErrors;

    public boolean init() {
        return init;
    }

    public String initSteps() {
        return initSteps;
    }

    public List<ScriptArgument> scripts() {
        return List.copyOf(scripts);
    }

    public String dbName() {
        return dbName;
    }

    public String host() {
        return host;
    }

    public String port() {
        return port;
    }

    public String username() {
        return username;
    }
}
