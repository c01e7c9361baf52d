package dev.gauntlet.trainevents.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The events are valid JSON of every kind, follow the seed, and the TEXT edit changes exactly the two fields. */
class RailEventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eventsAreValidNestedJsonOfEveryKindWithTheirFlatValues() throws Exception {
        SplittableRandom random = new SplittableRandom(7);
        Set<String> kinds = new HashSet<>();
        int longest = 0;
        int shortest = Integer.MAX_VALUE;
        for (int i = 0; i < 2_000; i++) {
            RailEvents.RailEvent e = RailEvents.next(random, 1_700_000_000_000L);
            JsonNode doc = JSON.readTree(e.payload());
            kinds.add(e.type());
            assertEquals(e.type(), doc.get("eventType").asText());
            assertEquals(e.id().toString(), doc.get("eventId").asText());
            assertEquals("PENDING", doc.get("lifecycle").asText());
            assertEquals(e.trainId(), doc.path("train").path("id").textValue());
            assertEquals(e.authorityId(), doc.path("authority").path("id").textValue());
            assertTrue(doc.get("location").has("milepost"), e.payload());
            longest = Math.max(longest, e.payload().length());
            shortest = Math.min(shortest, e.payload().length());
        }
        assertEquals(RailEvents.TYPES.length, kinds.size());
        assertTrue(shortest > 400 && longest > 2_000 && longest < 6_000, shortest + ".." + longest);
    }

    @Test
    void theSameSeedMakesTheSameEvents() {
        assertEquals(RailEvents.next(new SplittableRandom(3), 1L), RailEvents.next(new SplittableRandom(3), 1L));
        assertNotEquals(RailEvents.next(new SplittableRandom(3), 1L), RailEvents.next(new SplittableRandom(4), 1L));
    }

    @Test
    void theTextEditChangesLifecycleAndProcessedAtAndNothingElse() throws Exception {
        RailEvents.RailEvent e = RailEvents.next(new SplittableRandom(11), 5L);
        String edited = RailEvents.withLifecycle(
                RailEvents.withLifecycle(e.payload(), "PROCESSING", 1234L), "COMPLETE", 98765L);
        JsonNode before = JSON.readTree(e.payload());
        JsonNode after = JSON.readTree(edited);
        assertEquals("COMPLETE", after.get("lifecycle").asText());
        assertEquals(98765L, after.get("processedAt").asLong());
        ((com.fasterxml.jackson.databind.node.ObjectNode) before).put("lifecycle", "COMPLETE").put("processedAt", 98765);
        assertEquals(before, after);
    }
}
