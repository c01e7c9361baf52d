package dev.gauntlet.script.workload;

import dev.gauntlet.script.lang.PgbenchRandom;
import dev.gauntlet.script.lang.PgbenchSeeds;
import dev.gauntlet.script.lang.Value;
import java.util.Map;

/**
 * Each client's start as pgbench gives it: the random functions' state drawn from the seed in pgbench's order (so a
 * run with pgbench's {@code --random-seed} draws pgbench's values), the script chooser of its thread when each
 * client has a thread of its own ({@code -j} = {@code -c}; otherwise one of its own, since the runner's clients do
 * not share a thread's), and the variables {@code :scale}, {@code :client_id}, {@code :random_seed},
 * {@code :default_seed} and {@code -D}'s.
 */
public final class PgbenchSeeding {

    private final PgbenchSeeds seeds;
    private final long scale;
    private final Map<String, String> defines;

    /**
     * @param seed    the run's seed ({@code --random-seed}, {@code --seed}, or the one drawn for it)
     * @param clients the clients of the run (pgbench's {@code -c})
     * @param threads pgbench's {@code -j}
     */
    public PgbenchSeeding(long seed, int clients, int threads, long scale, Map<String, String> defines) {
        this.seeds = PgbenchSeeds.derive(seed, clients, threads, defines.containsKey("default_seed"));
        this.scale = scale;
        this.defines = Map.copyOf(defines);
    }

    /** Client {@code clientId} as it starts: its random states and its variables. */
    ClientState client(int clientId) {
        PgbenchRandom chooser = seeds.threads() >= seeds.clients() ? seeds.chooseRandom(clientId)
                : PgbenchRandom.seeded(seeds.clientRandom(clientId).nextLong() ^ 0x9E3779B97F4A7C15L);
        ClientState client = new ClientState(clientId, seeds.clientRandom(clientId), chooser);
        Variables v = client.variables;
        v.setValue("scale", Value.ofInt(scale));
        v.setValue("client_id", Value.ofInt(clientId));
        v.setValue("random_seed", seeds.randomSeedValue());
        seeds.defaultSeed().ifPresent(s -> v.setValue("default_seed", Value.ofInt(s)));
        defines.forEach(v::setText);
        return client;
    }
}
