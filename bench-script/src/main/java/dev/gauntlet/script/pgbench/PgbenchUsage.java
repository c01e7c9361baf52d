package dev.gauntlet.script.pgbench;

/** What {@code pgbench --help} prints (on standard output): pgbench 15's text, then where to report bugs. */
final class PgbenchUsage {

    private PgbenchUsage() {
    }

    static final String TEXT = """
            pgbench is a benchmarking tool for PostgreSQL.
            
            Usage:
              pgbench [OPTION]... [DBNAME]
            
            Initialization options:
              -i, --initialize         invokes initialization mode
              -I, --init-steps=[dtgGvpf]+ (default "dtgvp")
                                       run selected initialization steps
              -F, --fillfactor=NUM     set fill factor
              -n, --no-vacuum          do not run VACUUM during initialization
              -q, --quiet              quiet logging (one message each 5 seconds)
              -s, --scale=NUM          scaling factor
              --foreign-keys           create foreign key constraints between tables
              --index-tablespace=TABLESPACE
                                       create indexes in the specified tablespace
              --partition-method=(range|hash)
                                       partition pgbench_accounts with this method (default: range)
              --partitions=NUM         partition pgbench_accounts into NUM parts (default: 0)
              --tablespace=TABLESPACE  create tables in the specified tablespace
              --unlogged-tables        create tables as unlogged tables
            
            Options to select what to run:
              -b, --builtin=NAME[@W]   add builtin script NAME weighted at W (default: 1)
                                       (use "-b list" to list available scripts)
              -f, --file=FILENAME[@W]  add script FILENAME weighted at W (default: 1)
              -N, --skip-some-updates  skip updates of pgbench_tellers and pgbench_branches
                                       (same as "-b simple-update")
              -S, --select-only        perform SELECT-only transactions
                                       (same as "-b select-only")
            
            Benchmarking options:
              -c, --client=NUM         number of concurrent database clients (default: 1)
              -C, --connect            establish new connection for each transaction
              -D, --define=VARNAME=VALUE
                                       define variable for use by custom script
              -j, --jobs=NUM           number of threads (default: 1)
              -l, --log                write transaction times to log file
              -L, --latency-limit=NUM  count transactions lasting more than NUM ms as late
              -M, --protocol=simple|extended|prepared
                                       protocol for submitting queries (default: simple)
              -n, --no-vacuum          do not run VACUUM before tests
              -P, --progress=NUM       show thread progress report every NUM seconds
              -r, --report-per-command report latencies, failures, and retries per command
              -R, --rate=NUM           target rate in transactions per second
              -s, --scale=NUM          report this scale factor in output
              -t, --transactions=NUM   number of transactions each client runs (default: 10)
              -T, --time=NUM           duration of benchmark test in seconds
              -v, --vacuum-all         vacuum all four standard tables before tests
              --aggregate-interval=NUM aggregate data over NUM seconds
              --failures-detailed      report the failures grouped by basic types
              --log-prefix=PREFIX      prefix for transaction time log file
                                       (default: "pgbench_log")
              --max-tries=NUM          max number of tries to run transaction (default: 1)
              --progress-timestamp     use Unix epoch timestamps for progress
              --random-seed=SEED       set random seed ("time", "rand", integer)
              --sampling-rate=NUM      fraction of transactions to log (e.g., 0.01 for 1%)
              --show-script=NAME       show builtin script code, then exit
              --verbose-errors         print messages of all errors
            
            Common options:
              -d, --debug              print debugging output
              -h, --host=HOSTNAME      database server host or socket directory
              -p, --port=PORT          database server port number
              -U, --username=USERNAME  connect as specified database user
              -V, --version            output version information, then exit
              -?, --help               show this help, then exit
            
            Report bugs to the Gauntlet project: this is bench-script's drop-in for pgbench 15, run as
            "bench-script pgbench"; it writes Gauntlet's result.json, report.md and dashboard beside pgbench's output.
            """;
}
