package dev.gauntlet.testing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * A PostgreSQL container, when Testcontainers is on the test classpath and a Docker engine answers. All
 * Testcontainers types stay in this class, which {@link TestServer} touches only after finding Testcontainers on
 * the classpath: modules that reuse the test-jar without that dependency never load it.
 */
final class TestcontainersPostgres {

    private static final Logger log = LoggerFactory.getLogger(TestcontainersPostgres.class);
    /** The same major version as the embedded binaries, so results do not depend on which one a test got. */
    private static final String IMAGE = "postgres:18-alpine";

    private TestcontainersPostgres() {
    }

    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            log.debug("Testcontainers cannot reach Docker", e);
            return false;
        }
    }

    @SuppressWarnings("resource") // closed by the returned TestServer
    static TestServer start() {
        PostgreSQLContainer container = new PostgreSQLContainer(IMAGE)
                // The embedded server's settings, where Testcontainers' default would turn fsync off.
                .withCommand("postgres", "-c", "fsync=on", "-c", "max_connections=300",
                        "-c", "shared_buffers=256MB", "-c", "max_pred_locks_per_transaction=256");
        container.start();
        return TestServer.fromContainer(container.getJdbcUrl(), container.getUsername(), container.getPassword(),
                container);
    }
}
