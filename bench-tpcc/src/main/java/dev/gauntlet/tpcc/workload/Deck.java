package dev.gauntlet.tpcc.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * The transaction mix as a shuffled deck of 23 cards (clause 5.2.4.2): every 23 transactions of a terminal
 * contain exactly 10 New-Order, 10 Payment and one of each other type, in random order. (Drawing each
 * transaction at random with those weights, as go-tpc does, only reaches the mix on average.)
 */
public final class Deck {

    private final TpccRandom random;
    private final TransactionType[] cards;
    private int next;

    Deck(TpccRandom random) {
        this.random = random;
        List<TransactionType> all = new ArrayList<>();
        for (TransactionType t : TransactionType.values()) {
            for (int i = 0; i < t.cards(); i++) {
                all.add(t);
            }
        }
        this.cards = all.toArray(TransactionType[]::new);
        this.next = cards.length;
    }

    public static int size() {
        int n = 0;
        for (TransactionType t : TransactionType.values()) {
            n += t.cards();
        }
        return n;
    }

    /**
     * Seconds one terminal needs at the least to go through the deck once with keying and think times on: every
     * card's minimum keying time plus its mean think time (clause 5.2.5.7), with transactions taking no time. For
     * 10/10/1/1/1 cards that is 10 x (18 + 12) + 10 x (3 + 12) + (2 + 10) + (2 + 5) + (2 + 5) = 476 s.
     */
    public static double cycleSeconds() {
        double seconds = 0;
        for (TransactionType t : TransactionType.values()) {
            seconds += t.cards() * (t.keying().toMillis() / 1000.0 + t.meanThinkSeconds());
        }
        return seconds;
    }

    TransactionType draw() {
        if (next == cards.length) {
            shuffle();
            next = 0;
        }
        return cards[next++];
    }

    private void shuffle() {
        for (int i = cards.length - 1; i > 0; i--) {
            int j = random.uniform(0, i);
            TransactionType t = cards[i];
            cards[i] = cards[j];
            cards[j] = t;
        }
    }
}
