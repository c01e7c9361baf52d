package dev.gauntlet.sql.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data directory of a {@link LocalPostgres} before its server starts: discarded when a run asks to start afresh
 * (only ever what initdb made), created and initialised by initdb when empty, refused when it holds another major
 * version or something that is not PostgreSQL's, and given the server's settings.
 */
final class DataDirectory {

    private static final Logger log = LoggerFactory.getLogger(DataDirectory.class);
    /** Where the settings go, included from postgresql.conf. */
    static final String SETTINGS_FILE = "gauntlet.conf";

    private final Path path;
    private final ServerAccount account;
    private final PostgresTool tools;

    DataDirectory(Path path, ServerAccount account, PostgresTool tools) {
        this.path = path;
        this.account = account;
        this.tools = tools;
    }

    /** Deletes it, if it exists and is a PostgreSQL data directory or empty: a mistyped path must cost nothing. */
    void discard() throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        if (!Files.exists(path.resolve("PG_VERSION")) && !isEmpty()) {
            throw new LocalPostgresException("refusing to discard " + path
                    + ": it is not a PostgreSQL data directory (no PG_VERSION)");
        }
        log.debug("discarding data directory {}", path);
        PostgresBinaries.deleteTree(path);
    }

    /** Creates it for the server account and runs initdb in it, unless it holds data of these binaries already. */
    void prepare(PostgresBinaries binaries, String superuser) throws IOException {
        if (!Files.exists(path)) {
            Files.createDirectory(path);
        }
        account.own(path);
        account.ensureReachable(path);
        Path pgVersion = path.resolve("PG_VERSION");
        if (Files.exists(pgVersion)) {
            String major = Files.readString(pgVersion, StandardCharsets.UTF_8).trim();
            if (!major.equals(binaries.majorVersion())) {
                throw new LocalPostgresException(path + " holds PostgreSQL " + major
                        + " data but the embedded binaries are PostgreSQL " + binaries.version()
                        + "; start afresh or choose another data directory");
            }
            return;
        }
        if (!isEmpty()) {
            throw new LocalPostgresException(path + " is neither empty nor a PostgreSQL data "
                    + "directory (no PG_VERSION); choose another data directory or empty it");
        }
        PostgresTool.Outcome outcome = tools.run(List.of(binaries.tool("initdb"), "-D", path.toString(),
                "-U", superuser, "-A", "trust", "-E", "UTF8", "--locale=C"));
        if (!outcome.succeeded()) {
            throw tools.failure("initdb failed in " + path + " (running as " + account.describe() + ")", outcome, -1);
        }
    }

    /**
     * Writes the settings into a file that postgresql.conf includes, rather than passing them with -c: options
     * on the command line outrank ALTER SYSTEM, so an experiment's {@code ALTER SYSTEM SET synchronous_commit
     * = off} would silently do nothing. postgresql.auto.conf is read after postgresql.conf, so it wins.
     */
    void writeSettings(Map<String, String> settings) {
        StringBuilder b = new StringBuilder("# Written by Gauntlet at each start. ALTER SYSTEM (postgresql.auto.conf) "
                + "overrides these.\n");
        for (Map.Entry<String, String> setting : settings.entrySet()) {
            b.append(setting.getKey()).append(" = '").append(setting.getValue().replace("'", "''")).append("'\n");
        }
        try {
            Path file = path.resolve(SETTINGS_FILE);
            Files.writeString(file, b.toString());
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
            Path conf = path.resolve("postgresql.conf");
            String include = "include_if_exists = '" + SETTINGS_FILE + "'";
            if (!Files.readString(conf).contains(include)) {
                Files.writeString(conf, "\n" + include + "\n", StandardOpenOption.APPEND);
            }
        } catch (IOException e) {
            throw new LocalPostgresException("cannot write the server settings into " + path + ": "
                    + e.getMessage(), e);
        }
    }

    private boolean isEmpty() throws IOException {
        try (Stream<Path> entries = Files.list(path)) {
            return entries.findAny().isEmpty();
        }
    }
}
