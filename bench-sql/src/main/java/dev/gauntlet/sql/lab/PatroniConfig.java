package dev.gauntlet.sql.lab;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One node's Patroni configuration (written as its {@code patroni.yml}): the cluster's settings into Patroni's
 * bootstrap DCS, etcd v3 as its store, PostgreSQL from {@code bin} listening on the node's address, and pg_hba open to
 * the lab's subnet only. The settings that bound a failover (ttl, loop_wait, retry_timeout) are the lab's.
 */
final class PatroniConfig {

    private PatroniConfig() {
    }

    static Map<String, Object> node(PatroniCluster.Settings settings, String scope, String node, String address,
                                    Path home, List<String> etcdHosts, Path bin, String subnet, String password) {
        Map<String, Object> dcs = new LinkedHashMap<>();
        dcs.put("ttl", settings.ttl());
        dcs.put("loop_wait", settings.loopWait());
        dcs.put("retry_timeout", settings.retryTimeout());
        dcs.put("maximum_lag_on_failover", settings.maximumLagOnFailover());
        dcs.put("synchronous_mode", settings.synchronous());
        // A leader's postmaster that dies is failed over, not restarted in place; in synchronous mode an isolated
        // leader stops in 5 s instead of waiting for wal_sender_timeout (60 s).
        dcs.put("primary_start_timeout", 0);
        dcs.put("primary_stop_timeout", 5);
        // pg_rewind reads the old leader's own WAL back to the new leader's last restartpoint before the split: kept
        // here (wal_keep_size above the WAL between two checkpoints) where the lab has no archive. A rewind that fails
        // all the same has Patroni clone the node again instead of leaving it outside the cluster, on its old timeline.
        dcs.put("postgresql", Map.of("use_pg_rewind", true, "use_slots", true,
                "remove_data_directory_on_rewind_failure", true, "parameters", Map.of(
                "wal_log_hints", "on", "wal_level", "logical", "max_connections", 300, "max_wal_senders", 10,
                "max_replication_slots", 10,
                "wal_keep_size", "1GB", "hot_standby", "on")));
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("scope", scope);
        config.put("name", node);
        // INFO: the log says when pg_rewind ran ("running pg_rewind from ..."), which a node fault's record reports.
        config.put("log", Map.of("level", "INFO", "dir", home.resolve("log").toString()));
        config.put("restapi", Map.of("listen", address + ":8008", "connect_address", address + ":8008"));
        config.put("etcd3", Map.of("hosts", etcdHosts.stream().map(h -> h + ":2379").toList()));
        config.put("bootstrap", Map.of("dcs", dcs, "initdb", List.of(Map.of("encoding", "UTF8"), "data-checksums")));
        Map<String, Object> pg = new LinkedHashMap<>();
        pg.put("listen", address + ":5432");
        pg.put("connect_address", address + ":5432");
        pg.put("data_dir", home.resolve("data").toString());
        pg.put("bin_dir", bin.toString());
        pg.put("pgpass", home.resolve("pgpass").toString());
        pg.put("authentication", Map.of(
                "superuser", Map.of("username", PatroniCluster.SUPERUSER, "password", password),
                "replication", Map.of("username", "replicator", "password", password),
                "rewind", Map.of("username", "rewinder", "password", password)));
        pg.put("parameters", Map.of("unix_socket_directories", home.toString(), "shared_buffers", "64MB"));
        // a node cloned again (a replica created, or one whose rewind failed) asks its leader for a checkpoint at once,
        // not one spread over checkpoint_completion_target x checkpoint_timeout (minutes under load)
        pg.put("basebackup", List.of(Map.of("checkpoint", "fast")));
        pg.put("pg_hba", List.of("local all all trust", "host all all 127.0.0.1/32 md5",
                "host replication replicator " + subnet + " md5", "host all all " + subnet + " md5"));
        config.put("postgresql", pg);
        return config;
    }
}
