package dev.gauntlet.core.cli;

import dev.gauntlet.core.experiment.Dimension;
import dev.gauntlet.core.experiment.Experiment;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options every workload's experiments share: an experiment file, how many times to run the matrix, and the
 * noise threshold of the comparison. A workload adds its own dimension options (bench-tpcc's
 * {@code --variant NAME=SQL}, bench-trainevents' {@code --variant jsonb,text --pool direct,pooled}) and passes them
 * to {@link #experiment}.
 */
public final class ExperimentOptions {

    @Option(names = "--experiment", paramLabel = "FILE",
            description = "An experiment file: 'title:', 'variant NAME = SQL' (and 'level DIMENSION NAME = SQL') "
                    + "lines and an optional 'restore = SQL'.")
    Path file;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "1",
            description = {"Experiments: run every cell N times, alternating (A B A B ...), so the comparison "
                    + "has confidence intervals (default: ${DEFAULT-VALUE}; with 1, every figure is inconclusive).",
                    "With N >= 2 a winner is named only where the 95%% interval of the difference excludes zero, "
                            + "and Equal only where it lies within +/-threshold."})
    int repeat;

    @Option(names = "--threshold", paramLabel = "PERCENT", defaultValue = "5",
            description = "Experiments: the smallest change that matters; a winner needs a change this large, "
                    + "Equal needs the whole interval within +/- this (default: ${DEFAULT-VALUE}%%).")
    double threshold;

    /**
     * The experiment to run: the file's, or one of the dimensions the workload's own options gave; null when
     * neither was asked for (a single run).
     *
     * @param fromOptions the dimensions of the workload's options that were given (empty when none)
     */
    public Experiment experiment(String title, List<Dimension> fromOptions) {
        if (!(threshold >= 0) || Double.isInfinite(threshold)) {
            throw new BadInputException("--threshold must be a percentage >= 0 (got " + threshold + ")");
        }
        if (repeat < 1) {
            throw new BadInputException("--repeat must be at least 1 (got " + repeat + ")");
        }
        if (file != null && !fromOptions.isEmpty()) {
            throw new BadInputException("give either --experiment or the variants on the command line, not both");
        }
        try {
            if (file != null) {
                return Experiment.read(file).withRepeat(repeat);
            }
            if (fromOptions.isEmpty()) {
                if (repeat > 1) {
                    throw new BadInputException("--repeat applies to experiments (give variants or --experiment)");
                }
                return null;
            }
            return new Experiment(title, fromOptions, List.of(), repeat);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }

    /** True when {@code --experiment FILE} was given. */
    public boolean given() {
        return file != null;
    }

    public double threshold() {
        return threshold;
    }
}
