package dev.gauntlet.script.lang;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.OptionalLong;

/**
 * The random states and seed variables pgbench 15 derives from its random seed ({@code --random-seed}, or
 * {@code PGBENCH_RANDOM_SEED}, else the clock), drawn from one base sequence in pgbench's order:
 * <ol>
 *   <li>the base state is seeded with the seed ({@link PgbenchRandom#seeded}); {@code :random_seed} is the seed;</li>
 *   <li>one draw per client, in client order, seeds the client's state for the random functions;</li>
 *   <li>one draw is {@code :default_seed} (the seed of {@code hash()} and {@code permute()} without one), unless
 *       {@code -D default_seed=...} defined it;</li>
 *   <li>three draws per thread, in thread order, seed its state for choosing scripts by weight, for throttling
 *       ({@code --rate}) and for sampling the log ({@code --sampling-rate}).</li>
 * </ol>
 * Clients are dealt to threads as pgbench deals them: thread {@code i} takes the next
 * {@code (remaining clients + remaining threads - 1) / remaining threads} clients; there are never more threads than
 * clients.
 */
public final class PgbenchSeeds {

    private static final BigInteger UNSIGNED_LONG_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private final long seed;
    private final OptionalLong defaultSeed;
    private final PgbenchRandom[] clientStates;
    private final PgbenchRandom[] chooseStates;
    private final PgbenchRandom[] throttleStates;
    private final PgbenchRandom[] sampleStates;
    private final int[] firstClients;

    private PgbenchSeeds(long seed, int clients, int threads, boolean defaultSeedDefined) {
        if (clients < 1 || threads < 1) {
            throw new IllegalArgumentException("clients and threads must be at least 1");
        }
        int effectiveThreads = Math.min(threads, clients);
        this.seed = seed;
        PgbenchRandom base = PgbenchRandom.seeded(seed);
        clientStates = new PgbenchRandom[clients];
        for (int i = 0; i < clients; i++) {
            clientStates[i] = PgbenchRandom.seeded(base.nextLong());
        }
        defaultSeed = defaultSeedDefined ? OptionalLong.empty() : OptionalLong.of(base.nextLong());
        chooseStates = new PgbenchRandom[effectiveThreads];
        throttleStates = new PgbenchRandom[effectiveThreads];
        sampleStates = new PgbenchRandom[effectiveThreads];
        firstClients = new int[effectiveThreads + 1];
        int dealt = 0;
        for (int i = 0; i < effectiveThreads; i++) {
            firstClients[i] = dealt;
            dealt += (clients - dealt + effectiveThreads - i - 1) / (effectiveThreads - i);
            chooseStates[i] = PgbenchRandom.seeded(base.nextLong());
            throttleStates[i] = PgbenchRandom.seeded(base.nextLong());
            sampleStates[i] = PgbenchRandom.seeded(base.nextLong());
        }
        firstClients[effectiveThreads] = dealt;
    }

    /**
     * The states of a run.
     *
     * @param seed               the random seed (an unsigned 64-bit integer held in a long)
     * @param clients            {@code -c}
     * @param threads            {@code -j} (more threads than clients count as one per client)
     * @param defaultSeedDefined whether {@code -D default_seed=...} was given, so that pgbench draws no
     *                           {@code :default_seed}
     * @return the states
     */
    public static PgbenchSeeds derive(long seed, int clients, int threads, boolean defaultSeedDefined) {
        return new PgbenchSeeds(seed, clients, threads, defaultSeedDefined);
    }

    /**
     * The seed of an option's text, as pgbench's {@code set_random_seed} reads it: {@code time} is the monotonic
     * clock in microseconds, {@code rand} a strong random number, anything else must be an unsigned integer as C's
     * {@code sscanf("%lu")} reads it (leading spaces and a sign allowed, a negative number wraps, a too large one is
     * 18446744073709551615, nothing may follow).
     *
     * @param option the text of {@code --random-seed} or {@code PGBENCH_RANDOM_SEED}
     * @return the seed
     * @throws IllegalArgumentException with pgbench's message, {@code unrecognized random seed option "X"}
     */
    public static long parseOption(String option) {
        if (option.equals("time")) {
            return timeSeed();
        }
        if (option.equals("rand")) {
            return new SecureRandom().nextLong();
        }
        int i = 0;
        int n = option.length();
        while (i < n && NumberText.isSpace(option.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < n && (option.charAt(i) == '+' || option.charAt(i) == '-')) {
            negative = option.charAt(i) == '-';
            i++;
        }
        int digits = i;
        while (i < n && NumberText.isDigit(option.charAt(i))) {
            i++;
        }
        if (i == digits || i != n) {
            throw new IllegalArgumentException("unrecognized random seed option \"" + option + "\"");
        }
        BigInteger magnitude = new BigInteger(option.substring(digits, n));
        if (magnitude.compareTo(UNSIGNED_LONG_MAX) > 0) {
            return -1L;
        }
        long value = magnitude.longValue();
        return negative ? -value : value;
    }

    /**
     * The seed pgbench takes from the clock when given none (or {@code time}): the monotonic clock in microseconds.
     *
     * @return the seed
     */
    public static long timeSeed() {
        return System.nanoTime() / 1000;
    }

    /**
     * The seed.
     *
     * @return the seed, an unsigned 64-bit integer held in a long
     */
    public long seed() {
        return seed;
    }

    /**
     * The value of {@code :random_seed} (unless {@code -D random_seed=...} defined it): the seed as a signed integer.
     *
     * @return the value
     */
    public Value randomSeedValue() {
        return Value.ofInt(seed);
    }

    /**
     * The value of {@code :default_seed}, the same for every client.
     *
     * @return the seed drawn, or empty if {@code -D default_seed=...} defined it
     */
    public OptionalLong defaultSeed() {
        return defaultSeed;
    }

    /**
     * How many clients.
     *
     * @return {@code -c}
     */
    public int clients() {
        return clientStates.length;
    }

    /**
     * How many threads pgbench runs.
     *
     * @return {@code -j}, or the number of clients if smaller
     */
    public int threads() {
        return chooseStates.length;
    }

    /**
     * A client's state for the random functions, as it starts.
     *
     * @param client the client, from 0
     * @return a fresh copy of its state
     */
    public PgbenchRandom clientRandom(int client) {
        return clientStates[client].copy();
    }

    /**
     * A thread's state for choosing among weighted scripts, as it starts.
     *
     * @param thread the thread, from 0
     * @return a fresh copy of its state
     */
    public PgbenchRandom chooseRandom(int thread) {
        return chooseStates[thread].copy();
    }

    /**
     * A thread's state for throttling under {@code --rate}, as it starts.
     *
     * @param thread the thread, from 0
     * @return a fresh copy of its state
     */
    public PgbenchRandom throttleRandom(int thread) {
        return throttleStates[thread].copy();
    }

    /**
     * A thread's state for sampling the transaction log under {@code --sampling-rate}, as it starts.
     *
     * @param thread the thread, from 0
     * @return a fresh copy of its state
     */
    public PgbenchRandom sampleRandom(int thread) {
        return sampleStates[thread].copy();
    }

    /**
     * The first client a thread runs.
     *
     * @param thread the thread, from 0
     * @return its first client
     */
    public int firstClient(int thread) {
        return firstClients[thread];
    }

    /**
     * How many clients a thread runs.
     *
     * @param thread the thread, from 0
     * @return its number of clients (consecutive from {@link #firstClient})
     */
    public int clientCount(int thread) {
        return firstClients[thread + 1] - firstClients[thread];
    }

    /**
     * The thread that runs a client.
     *
     * @param client the client, from 0
     * @return its thread
     */
    public int threadOf(int client) {
        for (int thread = 0; thread < threads(); thread++) {
            if (client < firstClients[thread + 1]) {
                return thread;
            }
        }
        throw new IndexOutOfBoundsException("no client " + client);
    }
}
