package dev.gauntlet.core.run;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A run's phase probes, {@link DriverCpu} first: read at the start and at every phase boundary. */
final class PhaseProbes {

    private final List<PhaseProbe> probes;

    PhaseProbes(List<PhaseProbe> probes) {
        this.probes = List.copyOf(probes);
    }

    /** Every probe's reading now; a probe that throws counts as unreadable (null), never as a failed run. */
    Map<String, Long> read() {
        Map<String, Long> readings = new LinkedHashMap<>();
        for (PhaseProbe p : probes) {
            Long value;
            try {
                value = p.read();
            } catch (RuntimeException e) {
                value = null;
            }
            readings.put(p.name(), value);
        }
        return readings;
    }
}
