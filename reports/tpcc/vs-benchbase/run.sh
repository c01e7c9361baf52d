#!/bin/bash
# Gauntlet's TPC-C and BenchBase, alternated, on one PostgreSQL server: 4 warehouses, 8 clients (terminals),
# REPEATABLE READ, 60 s, no waits. Each tool has its own database on the server, loaded once beforehand:
#   BenchBase: java -jar benchbase.jar -b tpcc -c tpcc-4w.xml --create=true --load=true --execute=false
#   Gauntlet:  java -jar bench-tpcc.jar init --url "$G_URL" --user bench --warehouses 4
# usage: run.sh GAUNTLET_JAR BENCHBASE_DIR OUTDIR "G B G B G B" [gauntlet run options...]
# tpmC: Gauntlet's committed New-Orders per minute; BenchBase's completed New-Orders over its elapsed minutes (its
# summary.json and the 'Completed Transactions' table). Driver CPU: the whole process (user + system), /usr/bin/time.
set -u
JAR=$1; BB=$2; OUT=$3; ORDER=$4; shift 4
PORT=${PORT:-5435}; SSL=${SSL:-disable}; BB_JAVA=${BB_JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
G_URL="jdbc:postgresql://localhost:$PORT/gauntlet_tpcc?sslmode=$SSL"
export PGPASSWORD=bench
mkdir -p "$OUT"
n=0
for who in $ORDER; do
  n=$((n+1)); tag=$(printf "%02d-%s" $n $who); start=$(date -u +%H:%M:%S)
  psql -q -X "postgresql://bench@localhost:$PORT/postgres" -c CHECKPOINT > /dev/null
  if [ "$who" = G ]; then
    /usr/bin/time -f "driver-process-cpu-seconds %U %S" java -jar "$JAR" run --url "$G_URL" --user bench \
      --clients 8 --isolation repeatable-read --duration 60s "$@" --out "$OUT/$tag" > "$OUT/$tag.log" 2>&1
    tpmc=$(grep -oP '^tpmC: \K[0-9.]+' "$OUT/$tag.log")
    drv=$(grep -oP '^driverCpuPerTransactionMs: \K.*' "$OUT/$tag.log"); srv=$(grep -oP '^serverCpuPerTransactionMs: \K.*' "$OUT/$tag.log")
    rt=$(grep -oP '^roundTripsPerTransaction: \K.*' "$OUT/$tag.log"); audit=$(grep -oP '^Audit checks: \K.*' "$OUT/$tag.log")
    echo "$tag $start gauntlet tpmC $tpmc driver-ms/txn-in-run $drv server-ms/txn $srv round-trips/txn $rt checks $audit"
  else
    (cd "$BB" && /usr/bin/time -f "driver-process-cpu-seconds %U %S" "$BB_JAVA" -jar benchbase.jar -b tpcc \
      -c tpcc-4w.xml --execute=true -d "$OUT/$tag") > "$OUT/$tag.log" 2>&1
    no=$(grep -A2 'Completed Transactions' "$OUT/$tag.log" | grep -oP 'NewOrder/01\s+\[\s*\K[0-9]+')
    ns=$(python3 -c "import json,glob;print(json.load(open(glob.glob('$OUT/$tag/*.summary.json')[0]))['Elapsed Time (nanoseconds)'])")
    cpu=$(grep -oP 'driver-process-cpu-seconds \K.*' "$OUT/$tag.log" | awk '{print $1+$2}')
    echo "$tag $start benchbase tpmC $(python3 -c "print(round($no/($ns/6e10),1))") whole-process-cpu-s $cpu"
  fi
done
