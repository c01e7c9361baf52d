package dev.gauntlet.script;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.RunOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * {@code run}'s options as pgbench spells them, with pgbench's meaning. Those that are Gauntlet's own settings under
 * another name ({@code -c} is {@code --clients}, {@code -T} is {@code --duration} in seconds, {@code -t} is
 * {@code --iterations}, {@code -R} is {@code --rate}, {@code -P} is
 * {@code --report-every}, {@code --random-seed} is {@code --seed}, {@code --max-tries} is {@code --max-attempts})
 * are set there, and refused when both spellings are given.
 */
final class PgbenchOptions {

    @Option(names = {"-b", "--builtin"}, paramLabel = "NAME[@W]",
            description = "Add a built-in script (tpcb-like, simple-update, select-only, or a unique prefix) weighted W "
                    + "(default 1); 'list' lists them. Without -b, -f, -N or -S: tpcb-like.")
    List<String> builtins = new ArrayList<>();

    @Option(names = {"-f", "--file"}, paramLabel = "FILE[@W]",
            description = "Add a script file weighted W (default 1), in pgbench's script language.")
    List<String> files = new ArrayList<>();

    @Option(names = {"-N", "--skip-some-updates"}, description = "Same as -b simple-update.")
    boolean skipSomeUpdates;

    @Option(names = {"-S", "--select-only"}, description = "Same as -b select-only.")
    boolean selectOnly;

    @Option(names = {"-c", "--client"}, paramLabel = "NUM", description = "pgbench's spelling of --clients.")
    Integer clients;

    @Option(names = {"-j", "--jobs"}, paramLabel = "NUM",
            description = "pgbench's threads, each multiplexing its clients' connections: reported, and used to draw "
                    + "the random states as pgbench draws them. JDBC blocks, so every client has a worker of its own "
                    + "here whatever -j says (--workers sets them); on Java 21+ the workers are virtual threads "
                    + "carried by as many OS threads as cores, as pgbench's threads carry their connections (--threads).")
    Integer jobs;

    @Option(names = {"-T", "--time"}, paramLabel = "SECONDS", description = "pgbench's spelling of --duration, in seconds.")
    Integer time;

    @Option(names = {"-t", "--transactions"}, paramLabel = "NUM",
            description = "Transactions each client runs (--iterations) instead of a duration.")
    Long transactions;

    @Option(names = "-R", paramLabel = "TPS", description = "pgbench's spelling of --rate: transactions per second in all.")
    Double rate;

    @Option(names = {"-L", "--latency-limit"}, paramLabel = "MS",
            description = "Count transactions lasting more than MS milliseconds as late (none is skipped: see docs/script.md).")
    Double latencyLimitMs;

    @Option(names = {"-M", "--protocol"}, paramLabel = "simple|extended|prepared", defaultValue = "simple",
            description = "How queries are sent (default: ${DEFAULT-VALUE}): simple (text, values substituted), extended "
                    + "(unnamed statements, values as parameters), prepared (each statement prepared once per connection).")
    String protocol;

    @Option(names = {"-D", "--define"}, paramLabel = "VAR=VALUE", description = "Define a variable for the scripts.")
    Map<String, String> defines = new LinkedHashMap<>();

    @Option(names = {"-s", "--scale"}, paramLabel = "NUM",
            description = "The :scale the scripts see and the summary reports (default: read from pgbench_branches); "
                    + "with --init, the scale to load.")
    Integer scale;

    @Option(names = {"-P", "--progress"}, paramLabel = "SECONDS",
            description = "A progress line every SECONDS (pgbench's spelling of --report-every).")
    Integer progress;

    @Option(names = {"-r", "--report-per-command"},
            description = "Latency percentiles, failures and retries of every command of every script.")
    boolean perCommand;

    @Option(names = {"-n", "--no-vacuum"},
            description = "Do not vacuum pgbench_branches and pgbench_tellers and truncate pgbench_history before the run.")
    boolean noVacuum;

    @Option(names = {"-v", "--vacuum-all"}, description = "Also vacuum pgbench_accounts before the run.")
    boolean vacuumAll;

    @Option(names = "--random-seed", paramLabel = "SEED",
            description = "time, rand or an integer: the seed of the scripts' random functions and of the run (--seed).")
    String randomSeed;

    @Option(names = "--max-tries", paramLabel = "NUM",
            description = "Tries of a transaction that fails on a serialization failure or deadlock (default 1, as "
                    + "pgbench; --max-attempts is the same setting).")
    Integer maxTries;

    @Option(names = "--verbose-errors", description = "Print every failed try's error, not only the first of each kind.")
    boolean verboseErrors;

    @Option(names = "--failures-detailed", description = "Report failures as serialization failures and deadlocks apart.")
    boolean failuresDetailed;

    @Option(names = "--show-script", paramLabel = "NAME", description = "Print a built-in script and exit.")
    String showScript;

    /** pgbench's options this command does not take, refused when given (see {@link #REFUSED}): flags... */
    @Option(names = {"-C", "--connect", "-l", "--log", "--progress-timestamp", "-d", "--debug", "-i", "--initialize",
            "-q", "--quiet", "--foreign-keys", "--unlogged-tables"}, hidden = true)
    boolean refusedFlag;

    /** ...and options with a value. */
    @Option(names = {"--aggregate-interval", "--log-prefix", "--sampling-rate", "-h", "--host", "-p", "--port", "-U",
            "--username", "-I", "--init-steps", "-F", "--fillfactor", "--partitions", "--partition-method",
            "--tablespace", "--index-tablespace"}, hidden = true, paramLabel = "VALUE")
    String refusedValue;

    /** Why each refused option is, and what to use instead, by each of its spellings. */
    private static final Map<String, String> REFUSED = refused();

    private static Map<String, String> refused() {
        Map<String, String> m = new LinkedHashMap<>();
        refuse(m, "a new connection for each transaction is --pool connect",
                "-C", "--connect");
        refuse(m, "pgbench's per-transaction logs are bench-script pgbench -l's; every latency is in the run's .hlog "
                + "interval log and result.json", "-l", "--log", "--log-prefix", "--sampling-rate");
        refuse(m, "the run's intervals are --report-every (the .hlog and timeline hold them)", "--aggregate-interval");
        refuse(m, "progress lines show the time into the run", "--progress-timestamp");
        refuse(m, "not supported; --verbose-errors prints every error", "-d", "--debug");
        refuse(m, "give the server as --url jdbc:postgresql://HOST:PORT/DBNAME", "-h", "--host", "-p", "--port");
        refuse(m, "give the user as --user NAME", "-U", "--username");
        refuse(m, "load the tables with the init command (bench-script init -s N)", "-i", "--initialize");
        refuse(m, "an init option: init always runs pgbench's default steps", "-I", "--init-steps");
        refuse(m, "an init option, and init prints its progress once a step anyway", "-q", "--quiet");
        refuse(m, "an init option: bench-script init has it", "-F", "--fillfactor", "--foreign-keys",
                "--unlogged-tables", "--partitions", "--partition-method");
        refuse(m, "an init option, and not supported by init either", "--tablespace", "--index-tablespace");
        return m;
    }

    private static void refuse(Map<String, String> m, String why, String... names) {
        for (String name : names) {
            m.put(name, why);
        }
    }

    /** One script as the command line named it, in the order given. */
    record ScriptArgument(boolean builtin, String text) {
    }

    /**
     * The scripts in the order the command line gave them (pgbench numbers them so), {@code -N} and {@code -S} as the
     * built-ins they stand for; refuses pgbench options not supported here, naming them.
     */
    List<ScriptArgument> scripts(ParseResult parsed) {
        for (String arg : parsed.originalArgs()) {
            String name = arg.startsWith("--") ? arg.split("=", 2)[0] : arg.length() > 2 && arg.startsWith("-")
                    ? arg.substring(0, 2) : arg;
            String why = REFUSED.get(name);
            if (why != null && parsed.hasMatchedOption(name)) {
                throw new BadInputException("pgbench's " + name + " is not supported by bench-script run: " + why);
            }
        }
        List<ScriptArgument> order = new ArrayList<>();
        Iterator<String> b = builtins.iterator();
        Iterator<String> f = files.iterator();
        for (ArgSpec arg : parsed.matchedArgs()) {
            if (!(arg instanceof OptionSpec o)) {
                continue;
            }
            switch (o.longestName()) {
                case "--builtin" -> order.add(new ScriptArgument(true, b.next()));
                case "--file" -> order.add(new ScriptArgument(false, f.next()));
                case "--skip-some-updates" -> order.add(new ScriptArgument(true, "simple-update"));
                case "--select-only" -> order.add(new ScriptArgument(true, "select-only"));
                default -> { }
            }
        }
        if (order.isEmpty()) {
            order.add(new ScriptArgument(true, "tpcb-like"));
        }
        return order;
    }

    /** pgbench's threads ({@code -j}, default 1), at most one per client as pgbench counts them. */
    int threads(int clients) {
        return Math.min(jobs == null ? 1 : jobs, clients);
    }

    /**
     * Sets the run's settings pgbench's spellings gave, refusing a setting given in both spellings. pgbench's default of
     * one try holds unless a spelling of it was given.
     */
    void applyTo(RunOptions run, ParseResult parsed) {
        RunOptions.Spelling set = run.spelling();
        if (given(parsed, "--client", "--clients")) {
            set.clients(clients);
        }
        if (given(parsed, "--time", "--duration")) {
            if (time < 1) {
                throw new BadInputException("invalid duration: -T " + time + " (a positive number of seconds)");
            }
            set.duration(Duration.ofSeconds(time));
        }
        if (given(parsed, "--transactions", "--iterations")) {
            if (transactions < 1) {
                throw new BadInputException("invalid number of transactions: -t " + transactions);
            }
            if (time != null) {
                throw new BadInputException("specify either a number of transactions (-t) or a duration (-T), not both");
            }
            set.iterations(transactions);
        }
        if (given(parsed, "-R", "--rate")) {
            if (!(rate > 0)) {
                throw new BadInputException("invalid rate limit: -R " + rate);
            }
            set.rate(rate);
        }
        if (jobs != null && jobs < 1) {
            throw new BadInputException("invalid number of threads: -j " + jobs);
        }
        if (given(parsed, "--progress", "--report-every")) {
            if (progress < 1) {
                throw new BadInputException("invalid thread progress delay: -P " + progress);
            }
            set.reportEvery(Duration.ofSeconds(progress));
        }
        if (given(parsed, "--random-seed", "--seed")) {
            try {
                set.seed(dev.gauntlet.script.lang.PgbenchSeeds.parseOption(randomSeed));
            } catch (IllegalArgumentException e) {
                throw new BadInputException(e.getMessage());
            }
        }
        if (given(parsed, "--max-tries", "--max-attempts")) {
            if (maxTries < 0) {
                throw new BadInputException("invalid number of maximum tries: --max-tries " + maxTries);
            }
            if (maxTries == 0 && time == null && latencyLimitMs == null) {
                throw new BadInputException("an unlimited number of transaction tries can only be used with "
                        + "--latency-limit or a duration (-T)");
            }
            set.maxAttempts(maxTries == 0 ? Integer.MAX_VALUE : maxTries);
        } else if (!parsed.hasMatchedOption("--max-attempts")) {
            set.maxAttempts(1);
        }
        if (latencyLimitMs != null && !(latencyLimitMs > 0)) {
            throw new BadInputException("invalid latency limit: -L " + latencyLimitMs);
        }
        for (String name : defines.keySet()) {
            if (!dev.gauntlet.script.lang.SqlText.isValidVariableName(name)) {
                throw new BadInputException("invalid variable name: \"" + name + "\" (-D)");
            }
        }
        if (scale != null && scale < 1) {
            throw new BadInputException("invalid scaling factor: -s " + scale);
        }
    }

    /** Whether pgbench's spelling was given; refuses it given with Gauntlet's too. */
    private static boolean given(ParseResult parsed, String pgbench, String gauntlet) {
        boolean mine = parsed.hasMatchedOption(pgbench);
        if (mine && parsed.hasMatchedOption(gauntlet)) {
            throw new BadInputException("pgbench's " + parsed.matchedOption(pgbench).shortestName() + " and "
                    + gauntlet + " are the same setting: give one of them");
        }
        return mine;
    }
}
