package dev.gauntlet.core.history;

import dev.gauntlet.core.result.RunResult;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Where runs are kept besides their directories ({@code run --store URL}), so a team shares one history
 * ({@code report history --store URL}). Implementations come from the jar's modules through {@link ServiceLoader}:
 * the SQL module keeps runs in a PostgreSQL table, so every SQL workload's jar can store; a jar without a store for
 * a URL says so in one line.
 */
public interface ResultStore extends AutoCloseable {

    /**
     * Keeps a finished run; the same run id stored again replaces the earlier copy (a result re-written after its
     * checks).
     *
     * @throws ResultStoreException when the store refuses or cannot be reached, in one line without secrets
     */
    void save(RunResult result);

    /**
     * Every run kept, oldest first.
     *
     * @throws ResultStoreException when the store cannot be read, in one line without secrets
     */
    List<RunResult> runs();

    /** Where this store is, for messages: its URL with any password masked. */
    String describe();

    @Override
    void close();

    /**
     * Opens stores of one kind of URL. Registered in
     * {@code META-INF/services/dev.gauntlet.core.history.ResultStore$Provider}.
     */
    interface Provider {

        /** True when this provider stores at URLs like this one (e.g. {@code jdbc:postgresql:...}). */
        boolean accepts(String url);

        /** The kinds of URL it takes, for a message listing them: {@code jdbc:postgresql://HOST/DB}. */
        String example();

        /**
         * Opens the store, making what it needs (a table) if absent.
         *
         * @throws ResultStoreException when it cannot, in one line without secrets
         */
        ResultStore open(String url);
    }

    /**
     * The store at {@code url}, from the first provider that accepts it.
     *
     * @throws ResultStoreException when no provider in this program takes the URL, or the store cannot be opened
     */
    static ResultStore open(String url) {
        List<Provider> providers = ServiceLoader.load(Provider.class).stream().map(ServiceLoader.Provider::get).toList();
        for (Provider p : providers) {
            if (p.accepts(url)) {
                return p.open(url);
            }
        }
        throw new ResultStoreException("--store " + dev.gauntlet.core.result.Redaction.url(url)
                + ": this program cannot keep results there" + (providers.isEmpty()
                ? " (it has no result store; the SQL workloads' jars keep them in PostgreSQL)"
                : "; it takes " + String.join(" or ", providers.stream().map(Provider::example).toList())));
    }
}
