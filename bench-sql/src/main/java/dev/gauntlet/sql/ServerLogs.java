package dev.gauntlet.sql;

import java.nio.file.Path;

/**
 * Servers Gauntlet started whose logs a reader needs after they are gone (a Patroni lab's: every node's Patroni and
 * PostgreSQL logs, etcd's, HAProxy's): kept in a directory that stays when they stop.
 */
public interface ServerLogs {

    /** Keeps the logs in {@code dir} when the servers stop; returns what a result's note says of them. */
    String keepLogsIn(Path dir);
}
