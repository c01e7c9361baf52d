package dev.gauntlet.trainevents.workload;

import java.util.SplittableRandom;
import java.util.UUID;

/**
 * The ten kinds of event a railway control system emits, as the nested JSON documents it would send: the train
 * (symbol, engines, cars, tonnage), the movement authority and its limits, the location (subdivision, track,
 * milepost, coordinates), speed, crew, and directives, with a part of its own per kind. Documents run from about
 * 0.7 to 3 KB (bulletins and warrants with many directives are the long ones, some past PostgreSQL's 2 KB TOAST
 * threshold). Every field comes from the caller's random generator, so a seed makes the same events.
 *
 * <p>A document is drawn as a {@link Document}: everything but the two fields each event has of its own, its id and
 * the time it was emitted, which lead the finished payload ({@link #payload}) and are put in by the add statement
 * (the {@link EventCatalogue} keeps the drawn documents in the database, so the driver sends an event's id and the
 * number of its document, not the document). Each document starts its life with {@code "lifecycle":"PENDING"} and
 * {@code "processedAt":null}, the fields processing edits.
 */
public final class RailEvents {

    /** The kinds, as {@code eventType} spells them. */
    public static final String[] TYPES = {"ROUTE_AUTHORIZATION", "SIGNAL_CLEARANCE", "SPEED_RESTRICTION",
            "SWITCH_POSITION", "POSITION_UPDATE", "INFRASTRUCTURE_CONDITION", "TRACK_WARRANT", "CREW_CHANGE",
            "CONSIST_UPDATE", "DEFECT_DETECTOR"};

    private static final String[] SUBDIVISIONS = {"Cascade", "Sunset", "Tehachapi", "Moffat", "Horseshoe", "Raton",
            "Donner", "Marias", "Stampede", "Sherman"};
    private static final String[] RESTRICTIONS = {"Restricted speed", "Do not exceed 25 MPH", "Do not exceed 10 MPH",
            "Stop and protect", "Flagman on duty", "Form B track work", "Rail temperature watch", "Slide fence area"};
    private static final String[] CONDITIONS = {"broken rail", "wide gauge", "washout risk", "signal dark",
            "crossing gate failure", "rock fall", "track buckle", "switch heater fault"};
    private static final String[] DISPATCHERS = {"DS-01", "DS-02", "DS-07", "DS-11", "DS-14"};

    /**
     * A drawn document: the values of its flat columns and its body, the JSON object's members after the event's own
     * two ({@code "eventType":...}, ending with the closing brace).
     */
    public record Document(String type, String authorityId, String trainId, String body) {
    }

    private RailEvents() {
    }

    /** A random version 4 UUID from {@code random}, so ids follow the seed. */
    public static UUID uuid(SplittableRandom random) {
        long msb = (random.nextLong() & ~0xF000L) | 0x4000L;
        long lsb = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }

    /**
     * The payload of event {@code id} emitted at {@code emittedAtMillis} with {@code body}: what the add statement
     * builds in the database ({@link Variant#addSql()}), spelled out here for the tests that compare the two.
     */
    public static String payload(UUID id, long emittedAtMillis, String body) {
        return "{\"eventId\":\"" + id + "\",\"emittedAt\":" + emittedAtMillis + "," + body;
    }

    public static Document document(SplittableRandom random) {
        String type = TYPES[random.nextInt(TYPES.length)];
        boolean hasTrain = !type.equals("INFRASTRUCTURE_CONDITION");
        boolean hasAuthority = !type.equals("POSITION_UPDATE") && !type.equals("DEFECT_DETECTOR");
        String trainId = hasTrain ? "T" + pad(random.nextInt(20_000), 5) : null;
        String authorityId = hasAuthority ? "A-" + DISPATCHERS[random.nextInt(DISPATCHERS.length)] + "-"
                + pad(random.nextInt(1_000_000), 6) : null;
        String subdivision = SUBDIVISIONS[random.nextInt(SUBDIVISIONS.length)];
        double milepost = random.nextInt(5_000) / 10.0;

        StringBuilder j = new StringBuilder(1536);
        j.append("\"eventType\":\"").append(type)
                .append("\",\"lifecycle\":\"PENDING\",\"processedAt\":null")
                .append(",\"source\":{\"system\":\"").append(random.nextBoolean() ? "PTC" : "CAD")
                .append("\",\"node\":\"wiu-").append(random.nextInt(900) + 100).append("\",\"sequence\":")
                .append(random.nextInt(Integer.MAX_VALUE)).append('}');
        if (hasTrain) {
            int cars = 20 + random.nextInt(120);
            j.append(",\"train\":{\"id\":\"").append(trainId).append("\",\"symbol\":\"")
                    .append((char) ('A' + random.nextInt(26))).append((char) ('A' + random.nextInt(26)))
                    .append(pad(random.nextInt(1000), 3)).append('-').append(pad(random.nextInt(31) + 1, 2))
                    .append("\",\"engines\":[");
            int engines = 1 + random.nextInt(4);
            for (int e = 0; e < engines; e++) {
                j.append(e == 0 ? "" : ",").append("{\"road\":\"").append(random.nextBoolean() ? "BNSF" : "UP")
                        .append("\",\"number\":").append(1000 + random.nextInt(9000)).append(",\"position\":")
                        .append(e == 0 ? "\"lead\"" : "\"trail\"").append('}');
            }
            j.append("],\"cars\":").append(cars).append(",\"tons\":").append(cars * (60 + random.nextInt(60)))
                    .append(",\"lengthFeet\":").append(cars * 60 + 75 * engines).append(",\"hazmat\":")
                    .append(random.nextInt(10) == 0).append('}');
        }
        if (hasAuthority) {
            double to = milepost + 1 + random.nextInt(200) / 10.0;
            j.append(",\"authority\":{\"id\":\"").append(authorityId).append("\",\"kind\":\"")
                    .append(random.nextBoolean() ? "TWC" : "ABS").append("\",\"issuedBy\":\"")
                    .append(DISPATCHERS[random.nextInt(DISPATCHERS.length)]).append("\",\"limits\":{\"from\":{")
                    .append("\"subdivision\":\"").append(subdivision).append("\",\"milepost\":").append(milepost)
                    .append("},\"to\":{\"subdivision\":\"").append(subdivision).append("\",\"milepost\":")
                    .append(tenths(to)).append("}},\"expiresInMinutes\":")
                    .append(30 + random.nextInt(600)).append('}');
        }
        j.append(",\"location\":{\"subdivision\":\"").append(subdivision).append("\",\"track\":\"")
                .append(random.nextBoolean() ? "MT1" : "MT2").append("\",\"milepost\":").append(milepost)
                .append(",\"lat\":").append(Math.round((32 + random.nextDouble() * 16) * 1e5) / 1e5)
                .append(",\"lon\":").append(Math.round((-123 + random.nextDouble() * 30) * 1e5) / 1e5)
                .append("},\"speed\":{\"mph\":").append(random.nextInt(80)).append(",\"limitMph\":")
                .append(10 + 5 * random.nextInt(15)).append('}');
        j.append(",\"crew\":[{\"role\":\"engineer\",\"id\":\"E").append(random.nextInt(90_000) + 10_000)
                .append("\",\"onDutyMinutes\":").append(random.nextInt(720)).append("},{\"role\":\"conductor\",\"id\":\"C")
                .append(random.nextInt(90_000) + 10_000).append("\",\"onDutyMinutes\":").append(random.nextInt(720))
                .append("}]");
        int directives = type.equals("TRACK_WARRANT") || type.equals("SPEED_RESTRICTION")
                ? 3 + random.nextInt(12) : random.nextInt(3);
        j.append(",\"directives\":[");
        for (int d = 0; d < directives; d++) {
            double from = milepost + random.nextInt(100) / 10.0;
            j.append(d == 0 ? "" : ",").append("{\"n\":").append(d + 1).append(",\"text\":\"")
                    .append(RESTRICTIONS[random.nextInt(RESTRICTIONS.length)]).append(" between MP ")
                    .append(tenths(from)).append(" and MP ").append(tenths(from + 0.5 + random.nextInt(30) / 10.0))
                    .append(", ").append(random.nextBoolean() ? "main track" : "siding").append(" ")
                    .append(subdivision).append(" Subdivision\",\"acknowledged\":").append(random.nextBoolean())
                    .append('}');
        }
        j.append(']');
        detail(j, type, random);
        j.append('}');
        return new Document(type, authorityId, trainId, j.toString());
    }

    /** The part only this kind of event has. */
    private static void detail(StringBuilder j, String type, SplittableRandom random) {
        j.append(",\"detail\":{");
        switch (type) {
            case "ROUTE_AUTHORIZATION" -> j.append("\"route\":\"R").append(random.nextInt(400))
                    .append("\",\"signals\":").append(2 + random.nextInt(8)).append(",\"granted\":true");
            case "SIGNAL_CLEARANCE" -> j.append("\"signal\":\"S").append(random.nextInt(9999)).append("\",\"aspect\":\"")
                    .append(random.nextBoolean() ? "CLEAR" : "APPROACH").append('"');
            case "SPEED_RESTRICTION" -> j.append("\"reason\":\"").append(CONDITIONS[random.nextInt(CONDITIONS.length)])
                    .append("\",\"mph\":").append(10 + 5 * random.nextInt(6));
            case "SWITCH_POSITION" -> j.append("\"switch\":\"SW").append(random.nextInt(2000)).append("\",\"position\":\"")
                    .append(random.nextBoolean() ? "NORMAL" : "REVERSE").append("\",\"locked\":").append(random.nextBoolean());
            case "POSITION_UPDATE" -> j.append("\"gpsFix\":\"3D\",\"headingDegrees\":").append(random.nextInt(360))
                    .append(",\"odometerMiles\":").append(random.nextInt(200_000));
            case "INFRASTRUCTURE_CONDITION" -> j.append("\"condition\":\"")
                    .append(CONDITIONS[random.nextInt(CONDITIONS.length)]).append("\",\"severity\":")
                    .append(1 + random.nextInt(5)).append(",\"reportedBy\":\"inspector-").append(random.nextInt(500)).append('"');
            case "TRACK_WARRANT" -> j.append("\"warrant\":").append(random.nextInt(99_999))
                    .append(",\"boxes\":[").append(2 + random.nextInt(4)).append(',').append(5 + random.nextInt(4)).append(']');
            case "CREW_CHANGE" -> j.append("\"at\":\"crew point ").append(random.nextInt(60))
                    .append("\",\"hoursOfServiceLeftMinutes\":").append(random.nextInt(240));
            case "CONSIST_UPDATE" -> j.append("\"setOut\":").append(random.nextInt(10)).append(",\"pickedUp\":")
                    .append(random.nextInt(10));
            default -> j.append("\"detector\":\"DD").append(random.nextInt(800)).append("\",\"axles\":")
                    .append(100 + random.nextInt(400)).append(",\"alarms\":").append(random.nextInt(10) == 0 ? 1 : 0);
        }
        j.append('}');
    }

    private static String pad(int n, int width) {
        String digits = Integer.toString(n);
        return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
    }

    private static double tenths(double x) {
        return Math.round(x * 10) / 10.0;
    }
}
