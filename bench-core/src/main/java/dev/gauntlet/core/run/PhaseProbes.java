package dev.gauntlet.core.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's phase probes, {@link DriverCpu} and {@link DriverCompiling} first: read at the start and at every phase
 * boundary.
 */
final class PhaseProbes {

    private final List<PhaseProbe> probes;

    PhaseProbes(List<PhaseProbe> probes) {
        this.probes = List.copyOf(probes);
    }

    /** The phase probes among a run's {@code probes}, after the two every run has. */
    static PhaseProbes of(List<? extends Probe> probes) {
        List<PhaseProbe> phaseProbes = new ArrayList<>(List.of(new DriverCpu(), new DriverCompiling()));
        for (Probe p : probes) {
            if (p instanceof PhaseProbe phase) {
                phaseProbes.add(phase);
            }
        }
        return new PhaseProbes(phaseProbes);
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
