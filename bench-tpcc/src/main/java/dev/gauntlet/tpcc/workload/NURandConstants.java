package dev.gauntlet.tpcc.workload;

/**
 * The constants C of NURand for last names, customer ids and item ids (clause 2.1.6). Chosen at random per
 * load and per run; the run's last-name constant must differ from the load's by a delta in [65, 119],
 * excluding 96 and 112, so the run does not hit exactly the names the load favoured.
 */
public record NURandConstants(int lastName, int customerId, int itemId) {

    public static NURandConstants forLoad(TpccRandom random) {
        return new NURandConstants(random.uniform(0, 255), random.uniform(0, 1023), random.uniform(0, 8191));
    }

    public static NURandConstants forRun(TpccRandom random, int loadLastName) {
        int c;
        do {
            c = random.uniform(0, 255);
        } while (!validRunDelta(Math.abs(c - loadLastName)));
        return new NURandConstants(c, random.uniform(0, 1023), random.uniform(0, 8191));
    }

    static boolean validRunDelta(int delta) {
        return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
    }
}
