package dev.gauntlet.sql.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * An embedded PostgreSQL started in a new temporary directory, with one database, for as long as it is open: what
 * test fixtures run on (bench-testing's and bench-sql's own). Closing stops the server and deletes the directory.
 */
public final class TemporaryPostgres implements AutoCloseable {

    private final Path directory;
    private final LocalPostgres server;

    private TemporaryPostgres(Path directory, LocalPostgres server) {
        this.directory = directory;
        this.server = server;
    }

    /**
     * Starts a server in a new directory named {@code prefix...} under the system's temporary directory and creates
     * {@code database} there; on failure nothing is left running or on disk.
     */
    public static TemporaryPostgres start(String prefix, String database) {
        Path directory;
        try {
            directory = Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new IllegalStateException("could not create a temporary directory for PostgreSQL: " + e, e);
        }
        LocalPostgres postgres = LocalPostgres.builder().dataDirectory(directory.resolve("data")).fresh(true).build();
        try {
            postgres.start();
            postgres.createDatabaseIfAbsent(database);
        } catch (RuntimeException e) {
            postgres.stop();
            delete(directory);
            throw e;
        }
        return new TemporaryPostgres(directory, postgres);
    }

    public LocalPostgres server() {
        return server;
    }

    @Override
    public void close() {
        try {
            server.stop();
        } finally {
            delete(directory);
        }
    }

    private static void delete(Path directory) {
        try (Stream<Path> tree = Files.walk(directory)) {
            for (Path p : (Iterable<Path>) tree.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
