package dev.gauntlet.tpcc.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeckTest {

    @Test
    void everyTwentyThreeCardsHoldTheExactMix() {
        Deck deck = new Deck(new TpccRandom(7));
        assertEquals(23, Deck.size());
        for (int round = 0; round < 50; round++) {
            Map<TransactionType, Integer> counts = new EnumMap<>(TransactionType.class);
            for (int i = 0; i < 23; i++) {
                counts.merge(deck.draw(), 1, Integer::sum);
            }
            assertEquals(10, counts.get(TransactionType.NEW_ORDER));
            assertEquals(10, counts.get(TransactionType.PAYMENT));
            assertEquals(1, counts.get(TransactionType.ORDER_STATUS));
            assertEquals(1, counts.get(TransactionType.DELIVERY));
            assertEquals(1, counts.get(TransactionType.STOCK_LEVEL));
        }
    }

    @Test
    void theDeckIsShuffledAnewEachRound() {
        Deck deck = new Deck(new TpccRandom(11));
        List<TransactionType> first = new ArrayList<>();
        List<TransactionType> second = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            first.add(deck.draw());
        }
        for (int i = 0; i < 23; i++) {
            second.add(deck.draw());
        }
        assertNotEquals(first, second);
    }
}
