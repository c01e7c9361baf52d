package dev.gauntlet.tpcc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Variants to run in turn with identical parameters, and the SQL that puts the server back afterwards.
 * An experiment file reads:
 *
 * <pre>
 * # comment
 * title: synchronous_commit on vs off
 * variant on  = ALTER SYSTEM SET synchronous_commit = on; SELECT pg_reload_conf()
 * variant off = ALTER SYSTEM SET synchronous_commit = off; SELECT pg_reload_conf()
 * restore     = ALTER SYSTEM RESET synchronous_commit; SELECT pg_reload_conf()
 * </pre>
 */
public record Experiment(String title, List<Variant> variants, List<String> restore) {

    public Experiment {
        variants = List.copyOf(variants);
        restore = List.copyOf(restore);
        List<String> names = variants.stream().map(Variant::name).toList();
        if (names.stream().distinct().count() != names.size()) {
            throw new IllegalArgumentException("variant names must be distinct (got " + names + ")");
        }
    }

    public static Experiment read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read experiment file " + file + ": " + e.getMessage());
        }
        String title = file.getFileName().toString();
        List<Variant> variants = new ArrayList<>();
        List<String> restore = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            String where = file + ":" + (i + 1);
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("title:")) {
                title = line.substring("title:".length()).strip();
            } else if (line.startsWith("variant ")) {
                try {
                    variants.add(Variant.parse(line.substring("variant ".length()).strip()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(where + ": " + e.getMessage());
                }
            } else if (line.startsWith("restore")) {
                int eq = line.indexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException(where + ": expected 'restore = SQL; SQL'");
                }
                restore.addAll(Variant.splitStatements(line.substring(eq + 1)));
            } else {
                throw new IllegalArgumentException(where + ": expected 'title:', 'variant NAME = SQL' or "
                        + "'restore = SQL', got '" + line + "'");
            }
        }
        if (variants.size() < 2) {
            throw new IllegalArgumentException(file + " defines " + variants.size()
                    + " variant(s); an experiment needs at least two");
        }
        return new Experiment(title, variants, restore);
    }
}
