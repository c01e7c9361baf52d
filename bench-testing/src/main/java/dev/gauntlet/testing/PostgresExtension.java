package dev.gauntlet.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a real PostgreSQL as a {@link TestDatabase} parameter (of test methods, constructors, and
 * {@code @BeforeAll}/{@code @BeforeEach} methods). The server is, in this order: the one named by
 * {@code BENCH_TEST_JDBC_URL} (with {@code BENCH_TEST_USER} and {@code BENCH_TEST_PASSWORD}); a Testcontainers
 * container if a Docker engine answers; else an embedded {@link dev.gauntlet.sql.server.LocalPostgres} on a
 * temporary data directory.
 *
 * <p>One server per JVM, started on first use and stopped when the test run ends (or the JVM shuts down). A test
 * class that needs its own database calls {@link TestDatabase#freshDatabase(String)}:
 *
 * <pre>{@code
 * @ExtendWith(PostgresExtension.class)
 * class NewOrderTest {
 *     static TestDatabase db;
 *
 *     @BeforeAll
 *     static void createSchema(TestDatabase server) {
 *         db = server.freshDatabase("new_order_test");
 *     }
 * }
 * }</pre>
 */
public final class PostgresExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(PostgresExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestDatabase.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        try {
            return server(context).defaultDatabase();
        } catch (RuntimeException e) {
            throw new ParameterResolutionException("no PostgreSQL for tests: " + e.getMessage(), e);
        }
    }

    /** The shared server; the root store closes it when the whole test run ends. */
    private static TestServer server(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .computeIfAbsent(SharedServer.class, key -> new SharedServer(), SharedServer.class)
                .get();
    }

    /**
     * Starts the server on first use and remembers a failure, so a machine without PostgreSQL fails every test
     * quickly instead of retrying a slow start once per test.
     */
    private static final class SharedServer implements AutoCloseable {

        private TestServer server;
        private RuntimeException failure;
        private Thread shutdownHook;

        synchronized TestServer get() {
            if (failure != null) {
                throw failure;
            }
            if (server == null) {
                try {
                    server = TestServer.start();
                } catch (RuntimeException e) {
                    failure = e;
                    throw e;
                }
                // The root store is not closed when the JVM is interrupted (Ctrl-C in mvn test); the server,
                // running in its own session, would outlive it.
                shutdownHook = new Thread(server::close, "gauntlet-test-postgres-stop");
                Runtime.getRuntime().addShutdownHook(shutdownHook);
            }
            return server;
        }

        @Override
        public synchronized void close() {
            if (server == null) {
                return;
            }
            server.close();
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running or about to; closing twice is harmless.
            }
            server = null;
        }
    }
}
