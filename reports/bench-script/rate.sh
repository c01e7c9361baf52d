#!/usr/bin/env bash
# -R near saturation: pgbench and bench-script at the same rate on the same tables, alternated, each -T SECONDS, and
# both tools' latency percentiles from the schedule: pgbench's from its per-transaction log (-l; with -R its
# latency is from each transaction's scheduled start), Gauntlet's from result.json (latency from the intended start).
#
#   reports/bench-script/rate.sh RATE [OUT_DIR]
# Environment as side-by-side.sh; BUILTIN (tpcb-like), CLIENTS (8), PAIRS (2), SECONDS_PER_RUN (60).
set -euo pipefail
cd "$(dirname "$0")/../.."
rate=${1:?give the rate, transactions per second}
out=${2:-reports/bench-script/rate-$rate}
mkdir -p "$out"
: "${PGHOST:=localhost}" "${PGPORT:=5432}" "${PGUSER:=bench}" "${PGPASSWORD:=bench}" "${PGDATABASE:=bench_script_sbs}"
export PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE
secs=${SECONDS_PER_RUN:-60}; pairs=${PAIRS:-2}; builtin=${BUILTIN:-tpcb-like}; clients=${CLIENTS:-8}
pgbench=${PGBENCH:-/usr/lib/postgresql/15/bin/pgbench}
url="jdbc:postgresql://$PGHOST:$PGPORT/$PGDATABASE"
summary="$out/percentiles.tsv"
printf 'pair\ttool\ttps\tmean_ms\tp50\tp90\tp99\tp99.9\tmax\tlate_starts_over_1ms\n' > "$summary"

run_pgbench() {
  local dir="$out/pgbench-p$1"; rm -rf "$dir"; mkdir -p "$dir"
  (cd "$dir" && "$pgbench" -b "$builtin" -c "$clients" -j 2 -T "$secs" -R "$rate" -M prepared -l "$PGDATABASE" > run.log 2>&1)
  python3 - "$dir" "$1" >> "$summary" <<'PY'
import glob, sys, re
d, pair = sys.argv[1], sys.argv[2]
lat, lag = [], []
for f in glob.glob(d + "/pgbench_log.*"):
    for line in open(f):
        p = line.split()
        # client_id transaction_no time script_no time_epoch time_us schedule_lag
        lat.append(int(p[2]) / 1000.0); lag.append(int(p[6]) / 1000.0)
lat.sort()
q = lambda x: lat[min(len(lat) - 1, int(x * len(lat)))]
log = open(d + "/run.log").read()
tps = re.search(r"^tps = ([0-9.]+)", log, re.M).group(1)
print("%s\tpgbench\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%d" % (pair, tps, sum(lat) / len(lat), q(.5), q(.9), q(.99),
      q(.999), lat[-1], sum(1 for l in lag if l > 1.0)))
PY
}

run_gauntlet() {
  local dir="$out/gauntlet-p$1"; rm -rf "$dir"
  java -jar bench-script/target/bench-script.jar run -b "$builtin" -c "$clients" -j 2 -T "$secs" -R "$rate" -M prepared \
    --url "$url" --user "$PGUSER" --password "$PGPASSWORD" --out "$dir" > "$dir.log" 2>&1
  python3 - "$dir" "$1" >> "$summary" <<'PY'
import json, sys
d, pair = sys.argv[1], sys.argv[2]
r = json.load(open(d + "/result.json"))
op = [o for o in r["operations"] if o["name"] == "tpcb-like" or True][0]
l = op["latencyMs"]
lag = r.get("observations", {}).get("schedule lag", {}).get("latencyMs", {})
print("%s\tgauntlet\t%.2f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t(lag p99 %.3f)" % (pair, r["metrics"]["tps"], l["mean"], l["p50"],
      l["p90"], l["p99"], l["p999"], l["max"], lag.get("p99", 0)))
PY
}

for pair in $(seq 1 "$pairs"); do
  echo "== $(date -u +%H:%M:%S) -R $rate pair $pair"
  if (( pair % 2 == 1 )); then run_pgbench "$pair"; run_gauntlet "$pair"; else run_gauntlet "$pair"; run_pgbench "$pair"; fi
done
column -t -s $'\t' "$summary"
