#!/usr/bin/env bash
# pgbench and bench-script side by side on one database, alternated: for each configuration, PAIRS pairs, the order
# within a pair alternating (pgbench first, then bench-script first), each run -T SECONDS -M prepared.
# Records each run's tps, pgbench's process CPU (user+sys from /usr/bin/time) and Gauntlet's driver CPU per
# transaction (result.json's driverCpuPerOperationMs, the measured phase; and the JVM's whole-process CPU as well).
#
#   reports/bench-script/side-by-side.sh [OUT_DIR]
# Environment: PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE (default localhost 5432 bench bench bench_script_sbs),
#              SECONDS_PER_RUN (60), PAIRS (3), SCALE (10), CONFIGS ("tpcb-like:8 tpcb-like:32 select-only:8 select-only:32"),
#              SSLMODE (unset: both tools' default, TLS where the server offers it; disable: neither uses TLS),
#              JARS ("gauntlet=bench-script/target/bench-script.jar": LABEL=JAR pairs, each run beside pgbench in every
#              pair, the order rotating from pair to pair; e.g. "before=/tmp/old.jar after=bench-script/target/..."),
#              JAVA_<LABEL> and ARGS_<LABEL> (optional): the java and the extra run options of one label, e.g.
#              JARS="platform=J virtual=J" ARGS_platform="--threads platform" JAVA_virtual=/usr/lib/jvm/jdk-25/bin/java
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-reports/bench-script/side-by-side}
mkdir -p "$out"
: "${PGHOST:=localhost}" "${PGPORT:=5432}" "${PGUSER:=bench}" "${PGPASSWORD:=bench}" "${PGDATABASE:=bench_script_sbs}"
export PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE
secs=${SECONDS_PER_RUN:-60}
pairs=${PAIRS:-3}
scale=${SCALE:-10}
configs=${CONFIGS:-"tpcb-like:8 tpcb-like:32 select-only:8 select-only:32"}
pgbench=${PGBENCH:-/usr/lib/postgresql/15/bin/pgbench}
jars=${JARS:-"gauntlet=bench-script/target/bench-script.jar"}
java=${JAVA:-java}
url="jdbc:postgresql://$PGHOST:$PGPORT/$PGDATABASE"
# SSLMODE=disable: both tools without TLS (default: libpq's and pgjdbc's own default, prefer, which uses TLS here)
if [ -n "${SSLMODE:-}" ]; then export PGSSLMODE=$SSLMODE; url="$url?sslmode=$SSLMODE"; fi

psql -q -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$PGDATABASE'" | grep -q 1 \
  || psql -q -d postgres -c "CREATE DATABASE $PGDATABASE"
[ -n "${SKIP_INIT:-}" ] || "$pgbench" -i -s "$scale" -q "$PGDATABASE" > "$out/init.log" 2>&1

summary="$out/runs.tsv"
printf 'config\tpair\ttool\ttps\tcpu_s\tcpu_ms_per_txn\tmeasured_cpu_ms_per_txn\ttransactions\n' > "$summary"

run_pgbench() { # builtin clients pair
  local log="$out/$1-c$2-p$3-pgbench.log"
  /usr/bin/time -f 'CPU %U %S' "$pgbench" -b "$1" -c "$2" -j 2 -T "$secs" -M prepared "$PGDATABASE" > "$log" 2>&1
  local tps txn cpu
  tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$log")
  txn=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$log")
  cpu=$(awk '/^CPU /{print $2 + $3}' "$log")
  printf '%s-c%s\t%s\tpgbench\t%s\t%s\t%s\t\t%s\n' "$1" "$2" "$3" "$tps" "$cpu" \
    "$(awk -v c="$cpu" -v n="$txn" 'BEGIN{printf "%.4f", 1000*c/n}')" "$txn" >> "$summary"
}

run_gauntlet() { # builtin clients pair label jar
  local label=${4:-gauntlet} jar=${5:-bench-script/target/bench-script.jar}
  local log="$out/$1-c$2-p$3-$label.log" dir="$out/$1-c$2-p$3-$label"
  local java_of="JAVA_$label" args_of="ARGS_$label"
  local label_java=${!java_of:-$java}
  local -a label_args
  read -r -a label_args <<< "${!args_of:-}"
  rm -rf "$dir"
  /usr/bin/time -f 'CPU %U %S' "$label_java" -jar "$jar" run -b "$1" -c "$2" -j 2 -T "$secs" -M prepared \
    ${label_args[@]+"${label_args[@]}"} --url "$url" --user "$PGUSER" --password "$PGPASSWORD" --out "$dir" > "$log" 2>&1
  local tps txn cpu measured
  tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$log")
  txn=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$log")
  cpu=$(awk '/^CPU /{print $2 + $3}' "$log")
  measured=$(python3 -c "import json,sys; print('%.4f' % json.load(open('$dir/result.json'))['metrics']['driverCpuPerOperationMs'])")
  printf '%s-c%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$label" "$tps" "$cpu" \
    "$(awk -v c="$cpu" -v n="$txn" 'BEGIN{printf "%.4f", 1000*c/n}')" "$measured" "$txn" >> "$summary"
}

for config in $configs; do
  builtin=${config%%:*}; clients=${config##*:}
  for pair in $(seq 1 "$pairs"); do
    echo "== $(date -u +%H:%M:%S) $builtin c$clients pair $pair"
    # pgbench and each jar, the order rotated by the pair's number
    tools=(pgbench $jars)
    n=${#tools[@]}
    for i in $(seq 0 $((n - 1))); do
      tool=${tools[$(( (i + pair - 1) % n ))]}
      if [ "$tool" = pgbench ]; then run_pgbench "$builtin" "$clients" "$pair"
      else run_gauntlet "$builtin" "$clients" "$pair" "${tool%%=*}" "${tool#*=}"; fi
    done
  done
done
column -t -s $'\t' "$summary"
