package dev.gauntlet.tpcc;

import java.util.ArrayList;
import java.util.List;

/**
 * The transaction mix as a shuffled deck of 23 cards (clause 5.2.4.2): every 23 transactions of a terminal
 * contain exactly 10 New-Order, 10 Payment and one of each other type, in random order. (Drawing each
 * transaction at random with those weights, as go-tpc does, only reaches the mix on average.)
 */
final class Deck {

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

    static int size() {
        int n = 0;
        for (TransactionType t : TransactionType.values()) {
            n += t.cards();
        }
        return n;
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
