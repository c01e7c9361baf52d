package dev.gauntlet.core.run;

/**
 * A kind of client in a run, with its own count and pacing: a queue's {@code writers} paced at a rate and its
 * {@code readers} polling as fast as they can; TPC-C's one kind, its terminals.
 *
 * @param name    how results, reports and progress lines call it
 * @param clients how many clients of this kind
 * @param rate    open loop: intended operations per second across this role's clients (latency from each intended
 *                start, so queueing shows); 0 = closed loop, each client running back to back with its script's
 *                pauses
 * @param after   null, or the role that must be ready first: this role's clients start once every client of that one
 *                has finished its first operation (a queue's readers connected and polling before its writers
 *                publish), and an open-loop schedule starts then
 */
public record Role(String name, int clients, double rate, String after) {

    /** The role of a workload that has one kind of client. */
    public static final String CLIENTS = "clients";

    public Role {
        if (name == null || !name.matches("[A-Za-z][A-Za-z0-9_-]*")) {
            throw new IllegalArgumentException("role name '" + name + "' must be a word (letters, digits, - or _)");
        }
        if (clients < 1) {
            throw new IllegalArgumentException(name + ": clients must be at least 1 (got " + clients + ")");
        }
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException(name + ": rate must be 0 (closed loop) or a positive number of "
                    + "operations per second (got " + rate + ")");
        }
        if (name.equals(after)) {
            throw new IllegalArgumentException(name + " cannot wait for itself");
        }
    }

    public Role(String name, int clients, double rate) {
        this(name, clients, rate, null);
    }

    public static Role closedLoop(String name, int clients) {
        return new Role(name, clients, 0);
    }

    public static Role openLoop(String name, int clients, double opsPerSecond) {
        if (opsPerSecond <= 0) {
            throw new IllegalArgumentException(name + ": an open-loop rate must be positive (got " + opsPerSecond + ")");
        }
        return new Role(name, clients, opsPerSecond);
    }

    /** This role, starting once every client of {@code role} has finished its first operation. */
    public Role startingAfter(String role) {
        return new Role(name, clients, rate, role);
    }

    public boolean openLoop() {
        return rate > 0;
    }
}
