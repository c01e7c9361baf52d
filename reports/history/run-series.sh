#!/bin/bash
# 20 TPC-C runs, each on a freshly loaded warehouse (init --drop first), against the Debian PostgreSQL 15, the same command each time; synchronous_commit switched off
# by ALTER SYSTEM (as a DBA would, outside the benchmark) after run 10.
set -u
# Writes reports/history/tpcc-synchronous-commit/run-NN. Needs /tmp/bench-tpcc-hist.jar (a copy of
# bench-tpcc/target/bench-tpcc.jar), the databases tpcc_history and gauntlet_history, and a superuser bench/bench.
OUT=/work/main/reports/history/tpcc-synchronous-commit
STORE='jdbc:postgresql://localhost:5432/gauntlet_history?user=bench&password=bench'
export PGPASSWORD=bench
psql -h localhost -U bench -d postgres -qc "ALTER SYSTEM SET synchronous_commit = on" -c "SELECT pg_reload_conf()" >/dev/null
for i in $(seq -w 1 20); do
  if [ "$i" = "11" ]; then
    psql -h localhost -U bench -d postgres -qc "ALTER SYSTEM SET synchronous_commit = off" -c "SELECT pg_reload_conf()" >/dev/null
    echo "== synchronous_commit = off from run 11 on ($(date -u +%FT%TZ))"
  fi
  java -jar /tmp/bench-tpcc-hist.jar init --drop --url jdbc:postgresql://localhost:5432/tpcc_history --user bench --warehouses 1 > /tmp/history-init-$i.log 2>&1 || echo "init $i failed"
  java -jar /tmp/bench-tpcc-hist.jar run --url jdbc:postgresql://localhost:5432/tpcc_history --user bench \
    --warehouses 1 --clients 4 --duration 20s --warmup 5s --seed 7 --label night=$i \
    --store "$STORE" --out $OUT/run-$i > /tmp/history-run-$i.log 2>&1
  echo "run $i exit $? $(grep -E '^tpmC|Stored' /tmp/history-run-$i.log | tr '\n' ' ')"
  rm -f $OUT/run-$i/*.png $OUT/run-$i/dashboard.html $OUT/run-$i/*.hlog
done
psql -h localhost -U bench -d postgres -qc "ALTER SYSTEM RESET synchronous_commit" -c "SELECT pg_reload_conf()" >/dev/null
echo done
# Then runs 21-25, the same command with synchronous_commit back on (the loop above with i in 21..25, after the
# ALTER SYSTEM RESET): the regression the gate is shown failing on.
