package dev.gauntlet.core.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * What a run's result is called and where else it is kept: {@code --label NAME=VALUE} (stored in result.json, for
 * {@code report history} to group and order runs by) and {@code --store URL} (a shared history besides the run's
 * directory). Every command that runs a benchmark takes them, through {@link RunOptions} or as a mixin of its own.
 */
public final class ResultOptions {

    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,63}");

    @Option(names = "--label", paramLabel = "NAME=VALUE",
            description = {"Name the run for its history, e.g. --label release=25.2 --label host=db7 (repeat for "
                    + "several). Kept in result.json; 'report history --by release' orders runs by it. Labels do not "
                    + "make runs unlike: runs of one command with different labels stay one series."})
    Map<String, String> labels = new LinkedHashMap<>();

    @Option(names = "--store", paramLabel = "URL",
            description = {"Also keep the result in a shared store, so a team has one history: a PostgreSQL URL such "
                    + "as jdbc:postgresql://db/bench?user=ci&password=... keeps it in the table gauntlet_results "
                    + "(created if absent; the result as jsonb with the keys history groups by). Checked before the "
                    + "run starts; 'report history --store URL' reads it back."})
    String store;

    /** The labels, checked: names are letters, digits, {@code _ . -}, starting with a letter; values not empty. */
    public Map<String, String> labels() {
        for (Map.Entry<String, String> e : labels.entrySet()) {
            if (!NAME.matcher(e.getKey()).matches()) {
                throw new BadInputException("--label " + e.getKey() + "=...: a label name is a letter followed by "
                        + "letters, digits, '_', '.' or '-' (at most 64), e.g. release");
            }
            if (e.getValue() == null || e.getValue().isBlank()) {
                throw new BadInputException("--label " + e.getKey() + "= has no value; give one, e.g. --label "
                        + e.getKey() + "=25.2");
            }
        }
        return java.util.Collections.unmodifiableMap(labels);
    }

    /** The store's URL, or null when results stay in their directories only. */
    public String store() {
        return store;
    }
}
