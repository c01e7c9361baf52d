package dev.gauntlet.trainevents.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The documents are valid JSON of every kind once an event's id and time lead them, and they follow the seed. */
class RailEventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eventsAreValidNestedJsonOfEveryKindWithTheirFlatValues() throws Exception {
        SplittableRandom random = new SplittableRandom(7);
        Set<String> kinds = new HashSet<>();
        int longest = 0;
        int shortest = Integer.MAX_VALUE;
        for (int i = 0; i < 2_000; i++) {
            RailEvents.Document d = RailEvents.document(random);
            UUID id = RailEvents.uuid(random);
            String payload = RailEvents.payload(id, 1_700_000_000_000L, d.body());
            JsonNode doc = JSON.readTree(payload);
            kinds.add(d.type());
            assertEquals(d.type(), doc.get("eventType").asText());
            assertEquals(id.toString(), doc.get("eventId").asText());
            assertEquals(1_700_000_000_000L, doc.get("emittedAt").asLong());
            assertEquals("PENDING", doc.get("lifecycle").asText());
            assertTrue(doc.get("processedAt").isNull(), payload);
            assertEquals(d.trainId(), doc.path("train").path("id").textValue());
            assertEquals(d.authorityId(), doc.path("authority").path("id").textValue());
            assertTrue(doc.get("location").has("milepost"), payload);
            longest = Math.max(longest, payload.length());
            shortest = Math.min(shortest, payload.length());
        }
        assertEquals(RailEvents.TYPES.length, kinds.size());
        assertTrue(shortest > 400 && longest > 2_000 && longest < 6_000, shortest + ".." + longest);
    }

    @Test
    void theSameSeedMakesTheSameDocuments() {
        assertEquals(RailEvents.document(new SplittableRandom(3)), RailEvents.document(new SplittableRandom(3)));
        assertNotEquals(RailEvents.document(new SplittableRandom(3)), RailEvents.document(new SplittableRandom(4)));
    }
}
