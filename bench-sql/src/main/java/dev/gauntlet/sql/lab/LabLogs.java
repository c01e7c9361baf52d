package dev.gauntlet.sql.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a lab leaves to read once it is down: each node's Patroni and PostgreSQL logs, etcd's and HAProxy's, the
 * nodes' {@code patroni.yml} without its passwords and HAProxy's configuration, copied out of the lab's directory
 * (which goes with the lab) into one that stays; and the line of a node's logs that says why it is not up.
 */
final class LabLogs {

    /** What a kept {@code patroni.yml} has for each password. */
    static final String NOT_KEPT = "(not kept)";
    /** Lines that say why something failed, the most telling first: PostgreSQL's, a tool's, Patroni's. */
    private static final List<Pattern> REASONS = List.of(Pattern.compile("\\b(FATAL|PANIC):"),
            Pattern.compile("\\berror:"), Pattern.compile("\\bERROR\\b"));

    private LabLogs() {
    }

    /**
     * Copies the lab's logs and configurations from {@code lab} into {@code into} (made as needed), in the lab's
     * layout: {@code n1.log} (what Patroni printed), {@code n1/log/} (Patroni's log), {@code n1/data/log/}
     * (PostgreSQL's, when it writes one), {@code n1/patroni.yml}, {@code e1.log}, {@code haproxy.log},
     * {@code haproxy.cfg}. Returns the files kept.
     */
    static List<Path> copy(Path lab, Path into) throws IOException {
        List<Path> kept = new ArrayList<>();
        if (!Files.isDirectory(lab)) {
            return kept;
        }
        List<Path> files;
        try (Stream<Path> all = Files.walk(lab)) {
            files = all.filter(Files::isRegularFile).filter(f -> kept(lab.relativize(f))).toList();
        }
        for (Path f : files) {
            Path to = into.resolve(lab.relativize(f).toString());
            Files.createDirectories(to.getParent());
            if (f.getFileName().toString().equals("patroni.yml")) {
                YAMLMapper yaml = new YAMLMapper();
                JsonNode config = yaml.readTree(f.toFile());
                withoutPasswords(config);
                yaml.writeValue(to.toFile(), config);
            } else {
                Files.copy(f, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            kept.add(to);
        }
        return kept;
    }

    /** Every {@code password} field, however deep, set to {@value #NOT_KEPT}. */
    private static void withoutPasswords(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if (object.has("password")) {
                object.put("password", NOT_KEPT);
            }
        }
        node.forEach(LabLogs::withoutPasswords);
    }

    /** Whether a file of the lab (its path in the lab's directory) is a log or configuration worth keeping. */
    static boolean kept(Path relative) {
        String name = relative.getFileName().toString();
        if (name.equals("patroni.yml") || name.equals("haproxy.cfg")) {
            return true;
        }
        boolean log = name.endsWith(".log") || name.matches(".*\\.log\\.\\d+") || name.endsWith(".csv");
        if (!log) {
            return false;
        }
        // In a data directory only PostgreSQL's log directory: nothing of the data itself, nor etcd's.
        String path = relative.toString().replace('\\', '/');
        return !path.contains("/data/") || path.matches("[^/]+/data/(log|pg_log)/.*");
    }

    /**
     * The line of {@code node}'s logs in {@code lab} that says best why it is not up, trimmed of its timestamp and
     * prefix, or empty: the last of PostgreSQL's reasons ({@code FATAL}/{@code PANIC}: a replica's pg_basebackup
     * refused with {@code FATAL: password authentication failed for user "replicator"}) where there is one, else a
     * tool's last {@code error:}, else Patroni's last {@code ERROR} (which often says only that a tool failed).
     * What the node's programs printed ({@code n2.log}) is read before Patroni's log and PostgreSQL's.
     */
    static Optional<String> lastError(Path lab, String node) {
        List<Path> logs = new ArrayList<>(List.of(lab.resolve(node + ".log")));
        for (String dir : List.of("log", "data/log")) {
            try (Stream<Path> s = Files.list(lab.resolve(node).resolve(dir))) {
                s.filter(Files::isRegularFile).sorted().forEach(logs::add);
            } catch (IOException e) {
                // no such directory
            }
        }
        for (Pattern reason : REASONS) {
            for (Path log : logs) {
                try {
                    Optional<String> line = lastMatching(Files.readAllLines(log, StandardCharsets.UTF_8), reason);
                    if (line.isPresent()) {
                        return line;
                    }
                } catch (IOException | java.io.UncheckedIOException e) {
                    // not there, or not text
                }
            }
        }
        return Optional.empty();
    }

    /** The last line {@code log} holds that is not blank, at most 300 characters; empty when none or unreadable. */
    static Optional<String> lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            for (int i = lines.size() - 1; i >= 0; i--) {
                String line = lines.get(i).strip();
                if (!line.isEmpty()) {
                    return Optional.of(clipped(line));
                }
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // not there, or not text
        }
        return Optional.empty();
    }

    /** The last line {@code reason} finds, from where it finds it on, at most 300 characters. */
    static Optional<String> lastMatching(List<String> lines, Pattern reason) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            var m = reason.matcher(lines.get(i));
            if (m.find()) {
                return Optional.of(clipped(lines.get(i).substring(m.start()).strip().replaceAll("\\s+", " ")));
            }
        }
        return Optional.empty();
    }

    /** A line for a one-line message: at most 300 characters. */
    private static String clipped(String line) {
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }
}
