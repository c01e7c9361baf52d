package dev.gauntlet.script.pgbench;

import dev.gauntlet.script.lang.BuiltinScript;
import dev.gauntlet.script.lang.BuiltinScripts;
import dev.gauntlet.script.lang.PgbenchSeeds;
import dev.gauntlet.script.lang.QueryMode;
import dev.gauntlet.script.lang.ScriptChoice;
import dev.gauntlet.script.lang.ScriptFileException;
import dev.gauntlet.script.lang.ScriptParser;
import dev.gauntlet.script.lang.ScriptWeight;
import dev.gauntlet.script.lang.SqlText;
import dev.gauntlet.script.workload.ScriptCompiler;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * pgbench 15's command line read as pgbench reads it: its options through {@link Getopt} in the order given, each
 * checked as pgbench checks it while reading (a script file parsed when named), then the checks pgbench makes once all
 * are read, in its order, with its messages and its exit status (1). What it gives is {@link PgbenchSettings}; where
 * pgbench would exit instead (a bad option, {@code -b list}, {@code --show-script}), a {@link PgbenchExit}.
 */
public final class PgbenchArguments {

    /** pgbench's {@code DEFAULT_INIT_STEPS} and {@code ALL_INIT_STEPS}. */
    public static final String DEFAULT_INIT_STEPS = "dtgvp";
    public static final String ALL_INIT_STEPS = "dtgGvpf";

    private static final String SHORT = "iI:h:nvp:dqb:SNc:j:Crs:t:T:U:lf:D:F:M:P:R:L:";
    private static final List<Getopt.LongOption> LONG = List.of(
            arg("builtin", 'b'), arg("client", 'c'), flag("connect", 'C'), flag("debug", 'd'), arg("define", 'D'),
            arg("file", 'f'), arg("fillfactor", 'F'), arg("host", 'h'), flag("initialize", 'i'),
            arg("init-steps", 'I'), arg("jobs", 'j'), flag("log", 'l'), arg("latency-limit", 'L'),
            flag("no-vacuum", 'n'), arg("port", 'p'), arg("progress", 'P'), arg("protocol", 'M'), flag("quiet", 'q'),
            flag("report-per-command", 'r'), arg("rate", 'R'), arg("scale", 's'), flag("select-only", 'S'),
            flag("skip-some-updates", 'N'), arg("time", 'T'), arg("transactions", 't'), arg("username", 'U'),
            flag("vacuum-all", 'v'), flag("unlogged-tables", 1), arg("tablespace", 2), arg("index-tablespace", 3),
            arg("sampling-rate", 4), arg("aggregate-interval", 5), flag("progress-timestamp", 6),
            arg("log-prefix", 7), flag("foreign-keys", 8), arg("random-seed", 9), arg("show-script", 10),
            arg("partitions", 11), arg("partition-method", 12), flag("failures-detailed", 13), arg("max-tries", 14),
            flag("verbose-errors", 15));
    private static final List<String> QUERY_MODES = List.of("simple", "extended", "prepared");

    private PgbenchArguments() {
    }

    private static Getopt.LongOption arg(String name, int code) {
        return new Getopt.LongOption(name, true, code);
    }

    private static Getopt.LongOption flag(String name, int code) {
        return new Getopt.LongOption(name, false, code);
    }

    /**
     * Reads {@code args} (without the program's name) in an environment {@code env} (PGBENCH_RANDOM_SEED, PGDATABASE,
     * PGUSER, USER) as pgbench does; the lines pgbench would log on the way ({@code setting random seed to N}) are
     * added to {@code info}.
     *
     * @throws PgbenchExit where pgbench would exit
     */
    public static PgbenchSettings read(List<String> args, Map<String, String> env, List<String> info) {
        PgbenchSettings s = new PgbenchSettings();
        String envSeed = env.get("PGBENCH_RANDOM_SEED");
        if (envSeed != null) {
            s.seed = seed(envSeed, "PGBENCH_RANDOM_SEED environment variable", info);
        }
        Getopt.Parsed parsed = new Getopt("pgbench", SHORT, LONG).parse(args);
        for (Getopt.Given g : parsed.options()) {
            option(s, g.code(), g.argument(), info);
        }
        if (parsed.complaint() != null) {
            throw PgbenchExit.usage(parsed.complaint());
        }
        if (s.scripts.isEmpty() && !s.init) {
            s.scripts.add(new PgbenchSettings.ScriptArgument(true, "tpcb-like", 1));
            s.benchmarking = true;
        }
        for (PgbenchSettings.ScriptArgument a : s.scripts) {
            if (!a.builtin()) {
                try {
                    // pgbench's postprocess_sql_command, once every script is read: the query mode's limits
                    ScriptParser.checkQueryMode(ScriptParser.parseFile(a.name(), a.weight()),
                            QueryMode.fromOption(s.protocol));
                } catch (ScriptFileException e) {
                    throw new PgbenchExit(1, List.of(e.pgbenchStderr().split("\n")));
                }
            }
        }
        if (!s.init && s.scripts.stream().mapToLong(PgbenchSettings.ScriptArgument::weight).sum() == 0) {
            throw PgbenchExit.fatal("total script weight must not be zero");
        }
        s.jobs = Math.min(s.jobs, s.clients);
        List<String> operands = parsed.operands();
        if (!operands.isEmpty()) {
            s.dbName = operands.get(0);
        } else if (nonEmpty(env.get("PGDATABASE"))) {
            s.dbName = env.get("PGDATABASE");
        } else if (nonEmpty(env.get("PGUSER"))) {
            s.dbName = env.get("PGUSER");
        } else {
            s.dbName = System.getProperty("user.name");
        }
        if (operands.size() > 1) {
            throw PgbenchExit.usage(PgbenchLog.error("too many command-line arguments (first is \"" + operands.get(1)
                    + "\")"));
        }
        if (s.init) {
            checkInit(s);
        } else {
            checkBenchmark(s);
        }
        return s;
    }

    private static void option(PgbenchSettings s, int code, String arg, List<String> info) {
        switch (code) {
            case 'i' -> s.init = true;
            case 'I' -> {
                checkInitSteps(arg);
                s.initSteps = arg;
                s.initialization = true;
            }
            case 'h' -> s.host = arg;
            case 'n' -> s.noVacuum = true;
            case 'v' -> {
                s.benchmarking = true;
                s.vacuumAll = true;
            }
            case 'p' -> s.port = arg;
            case 'd' -> s.debug = true;
            case 'c' -> {
                s.benchmarking = true;
                s.clients = CNumbers.parseInt(arg, "-c/--clients", 1, Integer.MAX_VALUE);
            }
            case 'j' -> {
                s.benchmarking = true;
                s.jobs = CNumbers.parseInt(arg, "-j/--jobs", 1, Integer.MAX_VALUE);
            }
            case 'C' -> {
                s.benchmarking = true;
                s.connect = true;
            }
            case 'r' -> {
                s.benchmarking = true;
                s.perCommand = true;
            }
            case 's' -> {
                s.scaleGiven = true;
                s.scale = CNumbers.parseInt(arg, "-s/--scale", 1, Integer.MAX_VALUE);
            }
            case 't' -> {
                s.benchmarking = true;
                s.transactions = CNumbers.parseInt(arg, "-t/--transactions", 1, Integer.MAX_VALUE);
            }
            case 'T' -> {
                s.benchmarking = true;
                s.time = CNumbers.parseInt(arg, "-T/--time", 1, Integer.MAX_VALUE);
            }
            case 'U' -> s.username = arg;
            case 'l' -> {
                s.benchmarking = true;
                s.log = true;
            }
            case 'q' -> {
                s.initialization = true;
                s.quiet = true;
            }
            case 'b' -> {
                if (arg.equals("list")) {
                    throw new PgbenchExit(0, List.of(BuiltinScripts.listing().split("\n", -1)).subList(0,
                            BuiltinScripts.all().size() + 2));
                }
                ScriptWeight w = weight(arg);
                BuiltinScript builtin = builtin(w.script());
                script(s, new PgbenchSettings.ScriptArgument(true, builtin.name(), w.weight()));
            }
            case 'S' -> script(s, new PgbenchSettings.ScriptArgument(true, "select-only", 1));
            case 'N' -> script(s, new PgbenchSettings.ScriptArgument(true, "simple-update", 1));
            case 'f' -> {
                ScriptWeight w = weight(arg);
                try {
                    // pgbench parses a script, its expressions too, where the option is read: before connecting
                    ScriptCompiler.compile(0, ScriptParser.parseFile(w.script(), w.weight()), w.script(), false);
                } catch (ScriptFileException e) {
                    throw new PgbenchExit(1, List.of(e.pgbenchStderr().split("\n")));
                }
                script(s, new PgbenchSettings.ScriptArgument(false, w.script(), w.weight()));
            }
            case 'D' -> {
                s.benchmarking = true;
                int eq = arg.indexOf('=');
                if (eq <= 0 || eq == arg.length() - 1) {
                    throw PgbenchExit.fatal("invalid variable definition: \"" + arg + "\"");
                }
                String name = arg.substring(0, eq);
                if (!SqlText.isValidVariableName(name)) {
                    throw new PgbenchExit(1, List.of(PgbenchLog.error("option: invalid variable name: \"" + name
                            + "\"")));
                }
                s.defines.put(name, arg.substring(eq + 1));
            }
            case 'F' -> {
                s.initialization = true;
                s.fillfactor = CNumbers.parseInt(arg, "-F/--fillfactor", 10, 100);
            }
            case 'M' -> {
                s.benchmarking = true;
                if (!QUERY_MODES.contains(arg)) {
                    throw PgbenchExit.fatal("invalid query mode (-M): \"" + arg + "\"");
                }
                s.protocol = arg;
            }
            case 'P' -> {
                s.benchmarking = true;
                s.progress = CNumbers.parseInt(arg, "-P/--progress", 1, Integer.MAX_VALUE);
            }
            case 'R' -> {
                double rate = CNumbers.atof(arg);
                s.benchmarking = true;
                if (!(rate > 0.0)) {
                    throw PgbenchExit.fatal("invalid rate limit: \"" + arg + "\"");
                }
                s.rate = rate;
            }
            case 'L' -> {
                double limit = CNumbers.atof(arg);
                if (!(limit > 0.0)) {
                    throw PgbenchExit.fatal("invalid latency limit: \"" + arg + "\"");
                }
                s.benchmarking = true;
                s.latencyLimitMs = limit;
            }
            case 1 -> {
                s.initialization = true;
                s.unloggedTables = true;
            }
            case 2 -> {
                s.initialization = true;
                s.tablespace = arg;
            }
            case 3 -> {
                s.initialization = true;
                s.indexTablespace = arg;
            }
            case 4 -> {
                s.benchmarking = true;
                s.samplingRate = CNumbers.atof(arg);
                if (s.samplingRate <= 0.0 || s.samplingRate > 1.0 || Double.isNaN(s.samplingRate)) {
                    throw PgbenchExit.fatal("invalid sampling rate: \"" + arg + "\"");
                }
            }
            case 5 -> {
                s.benchmarking = true;
                s.aggregateInterval = CNumbers.parseInt(arg, "--aggregate-interval", 1, Integer.MAX_VALUE);
            }
            case 6 -> {
                s.progressTimestamp = true;
                s.benchmarking = true;
            }
            case 7 -> {
                s.benchmarking = true;
                s.logPrefix = arg;
            }
            case 8 -> {
                s.initialization = true;
                s.foreignKeys = true;
            }
            case 9 -> {
                s.benchmarking = true;
                s.seed = seed(arg, "--random-seed option", info);
            }
            case 10 -> {
                BuiltinScript b = builtin(arg);
                List<String> lines = new ArrayList<>(List.of(b.showScript().split("\n", -1)));
                throw new PgbenchExit(0, lines.subList(0, lines.size() - 1));
            }
            case 11 -> {
                s.initialization = true;
                s.partitions = CNumbers.parseInt(arg, "--partitions", 0, Integer.MAX_VALUE);
            }
            case 12 -> {
                s.initialization = true;
                String m = arg.toLowerCase(Locale.ROOT);
                if (!m.equals("range") && !m.equals("hash")) {
                    throw PgbenchExit.fatal("invalid partition method, expecting \"range\" or \"hash\", got: \""
                            + arg + "\"");
                }
                s.partitionMethod = m;
            }
            case 13 -> {
                s.benchmarking = true;
                s.failuresDetailed = true;
            }
            case 14 -> {
                int tries = CNumbers.atoi(arg);
                if (tries < 0) {
                    throw PgbenchExit.fatal("invalid number of maximum tries: \"" + arg + "\"");
                }
                s.benchmarking = true;
                s.maxTries = tries;
            }
            case 15 -> {
                s.benchmarking = true;
                s.verboseErrors = true;
            }
            default -> throw new IllegalStateException("option code " + code);
        }
    }

    private static void script(PgbenchSettings s, PgbenchSettings.ScriptArgument a) {
        if (s.scripts.size() >= ScriptChoice.MAX_SCRIPTS) {
            throw PgbenchExit.fatal("at most " + ScriptChoice.MAX_SCRIPTS + " SQL scripts are allowed");
        }
        s.scripts.add(a);
        s.benchmarking = true;
    }

    private static ScriptWeight weight(String arg) {
        try {
            return ScriptWeight.parse(arg);
        } catch (ScriptFileException e) {
            throw new PgbenchExit(1, List.of(e.pgbenchStderr().split("\n")));
        }
    }

    private static BuiltinScript builtin(String name) {
        try {
            return BuiltinScripts.find(name);
        } catch (ScriptFileException e) {
            throw new PgbenchExit(1, List.of(e.pgbenchStderr().split("\n", -1)).subList(0,
                    e.pgbenchStderr().split("\n", -1).length - 1));
        }
    }

    /** pgbench's {@code checkInitSteps}. */
    private static void checkInitSteps(String steps) {
        if (steps.isEmpty()) {
            throw PgbenchExit.fatal("no initialization steps specified");
        }
        for (char c : steps.toCharArray()) {
            if ((ALL_INIT_STEPS + " ").indexOf(c) < 0) {
                throw new PgbenchExit(1, List.of(PgbenchLog.error("unrecognized initialization step \"" + c + "\""),
                        PgbenchLog.detail("Allowed step characters are: \"" + ALL_INIT_STEPS + "\".")));
            }
        }
    }

    /** pgbench's {@code set_random_seed}, as --random-seed or PGBENCH_RANDOM_SEED gives it. */
    private static long seed(String text, String from, List<String> info) {
        long seed;
        try {
            seed = PgbenchSeeds.parseOption(text);
        } catch (IllegalArgumentException e) {
            throw new PgbenchExit(1, List.of(PgbenchLog.error(e.getMessage()),
                    PgbenchLog.detail("Expecting an unsigned integer, \"time\" or \"rand\"."),
                    PgbenchLog.error("error while setting random seed from " + from)));
        }
        info.add(PgbenchLog.info("setting random seed to " + Long.toUnsignedString(seed)));
        return seed;
    }

    /** The checks of an initialization, in pgbench's order; the default steps. */
    private static void checkInit(PgbenchSettings s) {
        if (s.benchmarking) {
            throw PgbenchExit.fatal("some of the specified options cannot be used in initialization (-i) mode");
        }
        if (s.partitions == 0 && s.partitionMethod != null) {
            throw PgbenchExit.fatal("--partition-method requires greater than zero --partitions");
        }
        if (s.partitions > 0 && s.partitionMethod == null) {
            s.partitionMethod = "range";
        }
        if (s.initSteps == null) {
            s.initSteps = DEFAULT_INIT_STEPS;
        }
        if (s.noVacuum) {
            s.initSteps = s.initSteps.replace('v', ' ');
        }
        if (s.foreignKeys && s.initSteps.indexOf('f') < 0) {
            s.initSteps = s.initSteps + "f";
        }
    }

    /** The checks of a benchmark, in pgbench's order; its default of 10 transactions a client. */
    private static void checkBenchmark(PgbenchSettings s) {
        if (s.initialization) {
            throw PgbenchExit.fatal("some of the specified options cannot be used in benchmarking mode");
        }
        if (s.transactions > 0 && s.time > 0) {
            throw PgbenchExit.fatal("specify either a number of transactions (-t) or a duration (-T), not both");
        }
        if (s.transactions <= 0 && s.time <= 0) {
            s.transactions = PgbenchSettings.DEFAULT_TRANSACTIONS;
        }
        if (s.samplingRate > 0 && !s.log) {
            throw PgbenchExit.fatal("log sampling (--sampling-rate) is allowed only when logging transactions (-l)");
        }
        if (s.samplingRate > 0 && s.aggregateInterval > 0) {
            throw PgbenchExit.fatal("log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be "
                    + "used at the same time");
        }
        if (s.aggregateInterval > 0 && !s.log) {
            throw PgbenchExit.fatal("log aggregation is allowed only when actually logging transactions");
        }
        if (!s.log && s.logPrefix != null) {
            throw PgbenchExit.fatal("log file prefix (--log-prefix) is allowed only when logging transactions (-l)");
        }
        if (s.time > 0 && s.aggregateInterval > s.time) {
            throw PgbenchExit.fatal("number of seconds for aggregation (" + s.aggregateInterval + ") must not be higher "
                    + "than test duration (" + s.time + ")");
        }
        if (s.time > 0 && s.aggregateInterval > 0 && s.time % s.aggregateInterval != 0) {
            throw PgbenchExit.fatal("duration (" + s.time + ") must be a multiple of aggregation interval ("
                    + s.aggregateInterval + ")");
        }
        if (s.progressTimestamp && s.progress == 0) {
            throw PgbenchExit.fatal("--progress-timestamp is allowed only under --progress");
        }
        if (s.maxTries == 0 && s.latencyLimitMs == null && s.time <= 0) {
            throw PgbenchExit.fatal("an unlimited number of transaction tries can only be used with --latency-limit or "
                    + "a duration (-T)");
        }
    }

    private static boolean nonEmpty(String s) {
        return s != null && !s.isEmpty();
    }

    /** The defines, as given (for a run's parameters). */
    static Map<String, String> copy(Map<String, String> defines) {
        return new LinkedHashMap<>(defines);
    }
}
