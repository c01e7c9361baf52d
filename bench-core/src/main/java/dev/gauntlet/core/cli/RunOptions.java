package dev.gauntlet.core.cli;

import dev.gauntlet.core.objective.Objective;
import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.core.run.CompilerSettled;
import dev.gauntlet.core.run.Condition;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.ThreadKind;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Option;

/** How a run is paced and where it writes: the options every workload spells the same way. */
public final class RunOptions {

    @Option(names = "--clients", paramLabel = "N", defaultValue = "8",
            description = "Simulated clients (default: ${DEFAULT-VALUE}). Clients are not threads: idle ones cost no thread.")
    int clients;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "60s",
            description = "Measured time after the warm-up, like 30s, 5m, 2h (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "0",
            description = "Operations per client instead of a duration (warm-up operations included).")
    long iterations;

    @Option(names = "--warmup", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "0s",
            description = "Time at the start excluded from results (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--prime", paramLabel = "TIME|auto[:MOST]", defaultValue = "auto",
            description = {"Unmeasured time before everything else (and before --warmup, which stays yours): every "
                    + "client runs as it will, so the driver's classes are loaded, its code compiled and its "
                    + "connections open when the schedule begins, and the first measured interval is not a cold start. "
                    + "Recorded as the phase 'prime'; its operations are in the data and in the checks, not in the "
                    + "figures.",
                    "auto (default): until the JVM's compilers have settled (an operation has run as many times as "
                            + "its optimizing compiler waits for, 7,500 on HotSpot, and under 3%% of the last 10 s went "
                            + "to compiling, at least 2s), at most a quarter of --duration, at most 2m; a tenth of --duration, at most 5s, "
                            + "for --worker runs (their processes keep one timeline); none for --iterations and --plan "
                            + "runs. auto:MOST: the same, at most MOST (the default jobs prime auto:45s: on a 2-core "
                            + "machine the compilers settled after about 20 s). 0s: none.",
                    "A workload that can put its tables back (bench-trainevents) primes apart: a run of its own "
                            + "before the measured one, after which the tables are restored as the priming found them, "
                            + "so the priming changes nothing the run measures; auto then lasts at most three times "
                            + "--duration (at most 3m)."})
    String prime;

    @Option(names = "--ramp", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "0s",
            description = "Start clients evenly over this time (default: ${DEFAULT-VALUE}).")
    Duration ramp;

    @Option(names = "--rate", paramLabel = "OPS_PER_S", defaultValue = "0",
            description = {"Open loop: intended operations per second across all clients. Latency is measured "
                    + "from each operation's intended start, so queueing shows (no coordinated omission).",
                    "0 (default) = closed loop: each client runs back to back, with the workload's think times."})
    double rate;

    @Option(names = "--report-every", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "10s",
            description = "Progress line and interval-log period (default: ${DEFAULT-VALUE}).")
    Duration reportEvery;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Output directory for result.json, report.md, charts and the .hlog interval log "
                    + "(default: results/<workload>-<timestamp>).")
    Path out;

    @Option(names = "--seed", paramLabel = "N", description = "Random seed (default: a new one per run, recorded in the result).")
    Long seed;

    @Option(names = "--workers", paramLabel = "N",
            description = "Threads executing operations (default: clients, at most 512). Waiting clients hold none.")
    Integer workers;

    @Option(names = "--threads", paramLabel = "KIND", defaultValue = "auto",
            description = {"What the workers are: virtual (the JDK's virtual threads, Java 21+: a worker waiting on "
                    + "the database holds no OS thread, so the driver takes as few cores from a server beside it as "
                    + "pgbench's -j threads do), platform (one OS thread a worker) or auto (default: virtual where "
                    + "this Java has them and there are more than 4 clients a core, else platform; at 4 a core and "
                    + "fewer an OS thread costs less a transaction)."})
    String threads;

    @Option(names = "--max-attempts", paramLabel = "N", defaultValue = "10",
            description = "Attempts per transaction on serialization failure or deadlock (default: ${DEFAULT-VALUE}).")
    int maxAttempts;

    @Option(names = "--plan", paramLabel = "FILE",
            description = {"Run through faults: the phases and disruptions of a plan file (YAML), e.g. "
                    + "plans/pua-smoke.yaml. Its phases replace --duration and --warmup; intervals are 1 s unless "
                    + "--report-every is given. Without --url an embedded primary and standby (as the plan says) are "
                    + "started; with --url only SQL-level disruptions and the user's own commands (kind: command) run.",
                    "The result adds each disruption's recovery time, unavailable seconds and dashboard.html."})
    Path plan;

    @Option(names = "--standby", paramLabel = "MODE",
            description = "With --plan and the embedded servers: sync, async or none, instead of the plan's standby "
                    + "(e.g. the same plan once with a synchronous and once with an asynchronous standby).")
    String standby;

    @Option(names = "--dry-run",
            description = "With --plan: check the plan against the target and print its schedule (every phase, every "
                    + "disruption's planned start and end, the commands it would run and their environment), then "
                    + "exit without connecting to the database or running anything.")
    boolean dryRun;

    @Option(names = "--worker", paramLabel = "I/N",
            description = {"This process runs part I of N of one run (0 <= I < N; not --workers, the threads), e.g. "
                    + "--worker $(JOB_COMPLETION_INDEX)/4 in a Kubernetes Indexed Job. --clients, --rate and the "
                    + "workload's own totals (TPC-C's warehouses) are the whole run's; each process takes a disjoint "
                    + "part and uses seed + I. 'report merge' checks that the parts are complete and disjoint.",
                    "With --plan: every process follows the plan's phases from --start-at, each its planned length "
                            + "(until: recovered too); worker 0 alone injects the disruptions, the others record "
                            + "them as planned; 'report merge' judges recovery on the merged timeline.",
                    "Default: 0/1, the whole run."})
    String worker;

    @Option(names = "--start-at", paramLabel = "TIME",
            description = "Wait until this wall-clock instant before starting (ISO-8601, e.g. 2026-11-25T15:00:00Z), "
                    + "so the driver processes of one run measure the same window; the run starts there, warm-up "
                    + "included. Default: start at once.")
    String startAt;

    @Option(names = "--prometheus-port", paramLabel = "PORT",
            description = "Serve the run's figures live for Prometheus at http://HOST:PORT/metrics (operations, "
                    + "errors by class, latency histograms, labelled by workload, worker and phase), updated every "
                    + "--report-every. 0 takes a free port (printed). Default: none.")
    Integer prometheusPort;

    @picocli.CommandLine.Mixin
    CapacityOptions capacity = new CapacityOptions();

    @picocli.CommandLine.Mixin
    ResultOptions results = new ResultOptions();

    private long chosenSeed;

    /** The most {@code --prime auto} gives a --worker run, whose processes must keep one timeline. */
    private static final Duration AUTO_PRIME_LIMIT = Duration.ofSeconds(5);
    /** The most {@code --prime auto}'s limit is otherwise (a quarter of --duration up to this). */
    private static final Duration AUTO_PRIME_MOST = Duration.ofMinutes(2);
    /**
     * The most an automatic priming apart lasts. It waits for 7,500 operations of a kind ({@link CompilerSettled}):
     * train events' jsonb runs 23-34 cycles a second on this project's machine, so even 3 min falls short for it.
     */
    private static final Duration AUTO_PRIME_APART_MOST = Duration.ofMinutes(3);
    private static final String AUTO = "auto";
    /** The least {@code --prime auto} lasts before it asks the compilers. */
    private static final Duration AUTO_PRIME_AT_LEAST = Duration.ofSeconds(2);

    /** The objectives of {@code --slo}, each refused in one line if it is not one. */
    public java.util.List<Objective> objectives() {
        return capacity.objectives();
    }

    /** {@code --slo} and {@code --find-max-rate}: what a run is judged by, and the search for the most load meeting it. */
    public CapacityOptions capacity() {
        return capacity;
    }

    /** {@code --label} and {@code --store}: what the result is called and where else it is kept. */
    public ResultOptions results() {
        return results;
    }

    public int clients() {
        return clients;
    }

    public Path out() {
        return out;
    }

    /** The plan file of a run through faults, or null. */
    public Path planFile() {
        return plan;
    }

    /** {@code --standby}, or null to keep the plan's. */
    public String standby() {
        if (standby != null && plan == null) {
            throw new BadInputException("--standby applies to runs with --plan");
        }
        return standby;
    }

    /** {@code --dry-run}: the plan checked and its schedule printed, nothing run. */
    public boolean dryRun() {
        if (dryRun && plan == null) {
            throw new BadInputException("--dry-run applies to runs with --plan");
        }
        return dryRun;
    }

    private boolean rolesOwnClients;

    /** This process's part of the run ({@code --worker}); {@link WorkerShare#WHOLE} when it runs all of it. */
    public WorkerShare share() {
        if (worker == null) {
            return WorkerShare.WHOLE;
        }
        try {
            WorkerShare share = WorkerShare.parse(worker);
            share.index();
            return share;
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new BadInputException("--worker: " + e.getMessage());
        }
    }

    /** What the workers are, from {@code --threads} ({@link ThreadKind#AUTO} chooses when the run starts). */
    public ThreadKind threadKind() {
        try {
            return ThreadKind.parse(threads);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--threads: " + e.getMessage());
        }
    }

    /** The port to serve Prometheus metrics on, or null for none. */
    public Integer prometheusPort() {
        if (prometheusPort != null && (prometheusPort < 0 || prometheusPort > 65535)) {
            throw new BadInputException("--prometheus-port must be a port number, 0-65535 (got " + prometheusPort + ")");
        }
        return prometheusPort;
    }

    /**
     * Says the workload counts its clients with options of its own (bench-queue's --writers and --readers) and splits
     * them itself: {@code --clients} is then neither split between workers nor required to cover them.
     */
    public void rolesOwnClients() {
        rolesOwnClients = true;
    }

    /**
     * Refuses {@code --worker} without {@code --start-at} for a workload whose processes meet on the database
     * (the SQL module's {@code Rendezvous}): the instant names the run they join. {@code why} says what they meet for.
     */
    public void requireStartAtToSplit(String why) {
        if (!share().whole() && startAt() == null) {
            throw new BadInputException("--worker " + share() + " needs --start-at: the instant every worker starts at "
                    + "names the run they join (" + why + ")");
        }
    }

    /** Refuses {@code --worker} for a workload that cannot split itself between processes yet, saying why. */
    public void requireWhole(String why) {
        if (share().count() > 1) {
            throw new BadInputException("--worker " + share() + ": " + why);
        }
    }

    /** When the run is to start ({@code --start-at}), or null to start at once. */
    public Instant startAt() {
        if (startAt == null) {
            return null;
        }
        try {
            return Instant.parse(startAt.strip());
        } catch (DateTimeParseException e) {
            throw new BadInputException("--start-at '" + startAt + "' is not an ISO-8601 instant like "
                    + "2026-11-25T15:00:00Z");
        }
    }

    /**
     * Sleeps until {@code --start-at}, saying so; returns at once without one. A time already past starts at once
     * with a warning (the processes' windows will not line up), as late as it is.
     */
    public void awaitStart(PrintStream out) throws InterruptedException {
        Instant at = startAt();
        if (at == null) {
            return;
        }
        long wait = Duration.between(Instant.now(), at).toMillis();
        if (wait < 0) {
            out.printf(Locale.ROOT, "warning: --start-at %s passed %.1f s ago; starting now%n", at, -wait / 1000.0);
            return;
        }
        out.printf(Locale.ROOT, "Waiting %.1f s until %s (--start-at)...%n", wait / 1000.0, at);
        Thread.sleep(wait);
    }

    private boolean autoPrime() {
        return prime == null || prime.isBlank() || prime.strip().toLowerCase(java.util.Locale.ROOT).startsWith(AUTO);
    }

    /** {@code auto:MOST}'s bound, or null for plain auto. */
    private Duration autoPrimeMost() {
        String v = prime == null ? "" : prime.strip();
        if (v.length() <= AUTO.length()) {
            return null;
        }
        if (v.charAt(AUTO.length()) != ':') {
            throw new BadInputException("--prime " + prime + ": give a time like 5s, auto, or auto:45s");
        }
        try {
            Duration most = DurationConverter.parse(v.substring(AUTO.length() + 1));
            if (most.isNegative()) {
                throw new BadInputException("--prime " + prime + ": the most must not be negative");
            }
            return most;
        } catch (picocli.CommandLine.TypeConversionException e) {
            throw new BadInputException("--prime " + prime + ": give auto:TIME with a time like 45s");
        }
    }

    /**
     * The priming, or its limit when it ends on {@link #primeUntil()}: as given, or (auto) a quarter of the duration,
     * at most 2 min, or for a --worker run a tenth of it, at most 5 s; none for iteration and plan runs.
     */
    Duration prime() {
        if (autoPrime()) {
            // None for a run bounded by iterations (the priming would spend them) or a plan (its own phases lead in).
            if (iterations > 0 || plan != null) {
                return Duration.ZERO;
            }
            if (worker != null) {
                Duration tenth = duration.dividedBy(10);
                return tenth.compareTo(AUTO_PRIME_LIMIT) > 0 ? AUTO_PRIME_LIMIT : tenth;
            }
            // A quarter, not more: the priming runs the workload, so it changes the database too. Tried as long as the
            // run (issue 25): train events' compilers settled after about 53 s and the driver's CPU a cycle in the
            // measured minute fell from about 1.3 to 0.8 ms, but the jsonb events heap had grown to 0.9 GB by then,
            // and the measured minute ran at 24 cycles/s on 82 ms of server CPU each instead of 30-34 on 55-64.
            Duration most = autoPrimeMost();
            if (most != null) {
                return most;
            }
            Duration quarter = duration.dividedBy(4);
            return quarter.compareTo(AUTO_PRIME_MOST) > 0 ? AUTO_PRIME_MOST : quarter;
        }
        Duration d;
        try {
            d = DurationConverter.parse(prime.strip());
        } catch (picocli.CommandLine.TypeConversionException e) {
            throw new BadInputException("--prime " + prime + ": give a time like 5s, or auto");
        }
        if (d.isNegative()) {
            throw new BadInputException("--prime must not be negative (got " + prime + ")");
        }
        return d;
    }

    /**
     * The priming's limit when it runs apart, before a run whose workload then restores its tables (so the priming
     * leaves the database as the measured run would have found it): with {@code --prime auto}, three times --duration,
     * at most {@link #AUTO_PRIME_APART_MOST}, since growing the data no longer bounds it; otherwise as {@link #prime()}.
     */
    public Duration primeApart() {
        if (autoPrime() && !prime().isZero()) {
            Duration most = autoPrimeMost();
            if (most != null) {
                return most;
            }
            Duration thrice = duration.multipliedBy(3);
            return thrice.compareTo(AUTO_PRIME_APART_MOST) > 0 ? AUTO_PRIME_APART_MOST : thrice;
        }
        return prime();
    }

    /**
     * What ends the priming before {@link #prime()}: with {@code --prime auto}, the JVM's compilers settling (not for
     * --worker runs, whose processes follow one timeline from a common start); null otherwise.
     */
    Condition primeUntil() {
        return autoPrime() && worker == null && !prime().isZero() ? new CompilerSettled(AUTO_PRIME_AT_LEAST) : null;
    }

    /** Whether {@code --seed} was given (else {@link #seed()} draws one for this process alone). */
    public boolean seedGiven() {
        return seed != null;
    }

    /** The seed this run uses: the given one, or one drawn now and kept for the result. */
    public long seed() {
        if (seed != null) {
            return seed;
        }
        if (chosenSeed == 0) {
            chosenSeed = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        }
        return chosenSeed;
    }

    /**
     * The same settings under another spelling: a workload that takes a peer tool's options (bench-script: pgbench's
     * {@code -c}, {@code -T}, {@code -t}, {@code -R}, {@code -j}, {@code -P}, {@code --random-seed},
     * {@code --max-tries}) sets them here, so the plan, the priming and the checks see one value.
     */
    public final class Spelling {
        private Spelling() {
        }

        public Spelling clients(int n) {
            clients = n;
            return this;
        }

        public Spelling duration(Duration d) {
            duration = d;
            return this;
        }

        public Spelling iterations(long perClient) {
            iterations = perClient;
            return this;
        }

        public Spelling rate(double opsPerSecond) {
            rate = opsPerSecond;
            return this;
        }

        public Spelling workers(int threads) {
            workers = threads;
            return this;
        }

        public Spelling reportEvery(Duration period) {
            reportEvery = period;
            return this;
        }

        public Spelling seed(long value) {
            seed = value;
            return this;
        }

        public Spelling maxAttempts(int attempts) {
            maxAttempts = attempts;
            return this;
        }
    }

    /** Sets options under another spelling (see {@link Spelling}). */
    public Spelling spelling() {
        return new Spelling();
    }

    /** Attempts per operation ({@code --max-attempts}). */
    public int maxAttempts() {
        return maxAttempts;
    }

    /** {@code --iterations}: operations per client, 0 when the run has a duration. */
    public long iterations() {
        return iterations;
    }

    /** {@code --duration}: the measured time. */
    public Duration duration() {
        return duration;
    }

    public RunPlan plan() {
        if (clients < 1) {
            throw new BadInputException("--clients must be at least 1 (got " + clients + ")");
        }
        if (workers != null && workers < 1) {
            throw new BadInputException("--workers must be at least 1 (got " + workers + ")");
        }
        if (iterations < 0) {
            throw new BadInputException("--iterations must not be negative (got " + iterations + ")");
        }
        if (duration.isZero() || duration.isNegative()) {
            throw new BadInputException("--duration must be positive (got " + DurationConverter.format(duration) + ")");
        }
        if (reportEvery.isZero() || reportEvery.isNegative()) {
            throw new BadInputException("--report-every must be positive");
        }
        if (rate < 0 || !Double.isFinite(rate)) {
            throw new BadInputException("--rate must be a positive number of operations per second (got " + rate + ")");
        }
        if (maxAttempts < 1) {
            throw new BadInputException("--max-attempts must be at least 1 (got " + maxAttempts + ")");
        }
        WorkerShare share = share();
        int mine = rolesOwnClients ? clients : share.part(clients).size();
        if (mine == 0) {
            throw new BadInputException("--worker " + share + " gets none of the " + clients + " clients: give at least "
                    + share.count() + " clients, one per worker");
        }
        // Each process paces its own clients: the whole run's rate, split as the clients are.
        double myRate = rate * mine / clients;
        int threadCount = workers != null ? workers : Math.min(mine, 512);
        RunPlan.Builder plan = RunPlan.builder().clients(mine, myRate).workers(threadCount).threads(threadKind())
                .warmup(warmup).prime(prime(), primeUntil())
                .ramp(ramp)
                .reportEvery(reportEvery).maxAttempts(maxAttempts).seed(seed() + share.index());
        return (iterations > 0 ? plan.iterations(iterations) : plan.duration(duration)).build();
    }
}
