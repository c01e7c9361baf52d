package dev.gauntlet.script.lang;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A client's view for tests: variables as pgbench keeps them (a value set by {@code \set} or at startup, or a text
 * set by {@code -D} or {@code \gset}, read through {@link Value#parse} when an expression uses it), its random
 * state, and the values {@code debug()} printed.
 */
final class ClientEvaluation implements Evaluation {

    private final Map<String, Object> variables = new HashMap<>();
    private final PgbenchRandom random;
    private final List<Value> debugged = new ArrayList<>();

    ClientEvaluation(PgbenchRandom random) {
        this.random = random;
    }

    /**
     * A client as pgbench -c 1 -j 1 --random-seed=SEED starts it: -D texts first, then :scale, :client_id,
     * :default_seed and :random_seed unless -D defined them.
     */
    static ClientEvaluation startup(long seed, Map<String, String> definitions) {
        PgbenchSeeds seeds = PgbenchSeeds.derive(seed, 1, 1, definitions.containsKey("default_seed"));
        ClientEvaluation client = new ClientEvaluation(seeds.clientRandom(0));
        definitions.forEach(client::setText);
        client.setIfAbsent("scale", Value.ofInt(1));
        client.setIfAbsent("client_id", Value.ofInt(0));
        seeds.defaultSeed().ifPresent(s -> client.setIfAbsent("default_seed", Value.ofInt(s)));
        client.setIfAbsent("random_seed", seeds.randomSeedValue());
        return client;
    }

    void setText(String name, String text) {
        variables.put(name, text);
    }

    void set(String name, Value value) {
        variables.put(name, value);
    }

    private void setIfAbsent(String name, Value value) {
        variables.putIfAbsent(name, value);
    }

    @Override
    public Value variable(String name) throws ScriptException {
        Object value = variables.get(name);
        if (value == null) {
            throw new ScriptException("undefined variable \"" + name + "\"");
        }
        return value instanceof Value ? (Value) value : Value.parse(name, (String) value);
    }

    @Override
    public PgbenchRandom random() {
        return random;
    }

    @Override
    public void debug(Value value) {
        debugged.add(value);
    }

    List<Value> debugged() {
        return debugged;
    }
}
