package dev.gauntlet.tpcc.workload;

import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Step;
import java.sql.Connection;

/**
 * One terminal: draws the next transaction from its deck and, with wait times on, pauses for the previous
 * transaction's think time plus this one's keying time before it (clause 5.2.5). The runner does the
 * waiting, so a waiting terminal holds neither a thread nor a connection.
 */
final class Terminal implements ClientScript<Connection> {

    private final Home home;
    private final TpccRandom random;
    private final Deck deck;
    private final boolean waits;
    private final TransactionMode mode;
    private long thinkNanos;

    Terminal(Home home, TpccRandom random, boolean waits, TransactionMode mode) {
        this.home = home;
        this.random = random;
        this.deck = new Deck(random);
        this.waits = waits;
        this.mode = mode;
    }

    @Override
    public Step<Connection> next() {
        TransactionType type = deck.draw();
        long pause = 0;
        if (waits) {
            pause = thinkNanos + type.keying().toNanos();
            thinkNanos = (long) (random.negativeExponential(type.meanThinkSeconds()) * 1e9);
        }
        return new Step<>(mode.operation(type.next(home, random)), pause);
    }
}
