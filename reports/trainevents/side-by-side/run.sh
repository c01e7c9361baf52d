#!/bin/bash
# Gauntlet and the demo (dbworkload 0.16), alternated, on the Debian PostgreSQL 15 at localhost:$PORT (TLS; PORT defaults to 5432).
# usage: run.sh JAR OUTDIR "text:G D G D" "jsonb-manual:D G" ...   (G = Gauntlet, D = the demo)
# Needs: /work/peers/dbworkload-venv (see ../peer/README.md), databases rail and demo owned by bench/bench.
# DEMO_GIN=jsonb_path_ops gives the demo's GIN index that operator class (as Gauntlet's jsonb variant has it since
# 2026-11-28); unset, the demo's schema is ../peer/schema-postgres.sql as it is (GIN with the default jsonb_ops).
set -u
JAR=$1; OUT=$2; shift 2
PEER=$(cd "$(dirname "$0")/../peer" && pwd)
SCHEMA=$PEER/schema-postgres.sql
if [ -n "${DEMO_GIN:-}" ]; then
  SCHEMA=$(mktemp --suffix=.sql)
  sed "s/USING GIN (payload);/USING GIN (payload ${DEMO_GIN});/" "$PEER/schema-postgres.sql" > "$SCHEMA"
  grep -q "USING GIN (payload ${DEMO_GIN})" "$SCHEMA" || { echo "DEMO_GIN: the schema's GIN line was not found" >&2; exit 2; }
fi
export PGPASSWORD=bench PATH=/work/peers/dbworkload-venv/bin:$PATH
mkdir -p "$OUT"
demo_file() { case $1 in text) echo transactionsText.py;; jsonb) echo transactionsJsonb.py;; jsonb-manual) echo transactionsManual.py;; esac; }
n=0
for spec in "$@"; do
  variant=${spec%%:*}
  for who in ${spec#*:}; do
    n=$((n+1)); tag=$(printf "%02d-%s-%s" $n $variant $who); start=$(date -u +%H:%M:%S)
    # Neither tool's leftovers stay for the next run: a finished jsonb run leaves tables full of dead row versions,
    # and autovacuum works through them on the same 2 cores during whatever runs next (seen in the fifth round, 2026-11-28 00:48-00:50:
    # VACUUM of Gauntlet's train_events through a demo run, and of the demo's events_jsonb through a Gauntlet run).
    psql -q -X "postgresql://bench@localhost:${PORT:-5432}/rail" -c "DROP TABLE IF EXISTS train_events_archive, train_event_status, train_events, te_ledgers, train_event_documents, train_events_kept, train_event_status_kept" >/dev/null
    psql -q -X "postgresql://bench@localhost:${PORT:-5432}/demo" -f "$SCHEMA" >/dev/null 2>&1
    psql -q -X "postgresql://bench@localhost:${PORT:-5432}/rail" -c CHECKPOINT >/dev/null
    if [ "$who" = G ]; then
      /usr/bin/time -f "driver-process-cpu-seconds %U %S" java -jar "$JAR" run --variant $variant --pool direct \
        --clients 64 --min-batch 10 --max-batch 100 --delay 100ms --duration 60s --seed-events 20000 \
        --url jdbc:postgresql://localhost:${PORT:-5432}/rail --user bench --out "$OUT/$tag" > "$OUT/$tag.log" 2>&1
      cps=$(grep -oP '^cyclesPerSecond: \K.*' "$OUT/$tag.log"); run=$(grep -oP '^cpu.driverMsPerCycle: \K.*' "$OUT/$tag.log")
      srv=$(grep -oP '^cpu.serverMsPerCycle: \K.*' "$OUT/$tag.log")
      cycles=$(python3 -c "import json;r=json.load(open('$OUT/$tag/result.json'));print(r['observations']['cycle']['count'])" 2>/dev/null || echo '?')
      cpu=$(grep -oP 'driver-process-cpu-seconds \K.*' "$OUT/$tag.log" | awk '{print $1+$2}')
      whole=$(python3 -c "print(round($cpu*1000/$cycles,2))" 2>/dev/null || echo '?')
      audit=$(grep -oP '^Audit checks: \K.*' "$OUT/$tag.log")
      added=$(grep -oP '^eventsAddedPerSecond: \K[0-9]+' "$OUT/$tag.log"); archived=$(grep -oP '^eventsArchivedPerSecond: \K[0-9]+' "$OUT/$tag.log")
      echo "$tag $start gauntlet cycles/s $cps driver-ms/cycle-in-run $run whole-process $whole server-ms/cycle $srv checks $audit events-added/s $added archived/s $archived"
    else
      psql -q -X -v ON_ERROR_STOP=1 "postgresql://bench@localhost:${PORT:-5432}/demo" -f "$SCHEMA" >/dev/null 2>&1
      psql -q -X -v ON_ERROR_STOP=1 "postgresql://bench@localhost:${PORT:-5432}/demo" -f "$PEER/populate-postgres.sql" >/dev/null 2>&1
      seeded=$(psql -X -At "postgresql://bench@localhost:${PORT:-5432}/demo" -c "SELECT count(*) FROM events_${variant//-/_}")
      (cd "$PEER" && /usr/bin/time -f "driver-process-cpu-seconds %U %S" dbworkload run -w $(demo_file $variant) -c 64 -d 60 \
        --uri "postgresql://bench:bench@localhost:${PORT:-5432}/demo?sslmode=require" \
        --args '{"min_batch_size":10,"max_batch_size":100,"delay":100}') > "$OUT/$tag.log" 2>&1
      ops=$(grep "__cycle__" "$OUT/$tag.log" | tail -1 | tr -d '│,' | awk '{print $4}')
      # Events added and archived in the run, from the tables (the seeded ones counted before it).
      t=events_${variant//-/_}; q() { psql -X -At "postgresql://bench@localhost:${PORT:-5432}/demo" -c "$1"; }
      now=$(q "SELECT (SELECT count(*) FROM $t) + (SELECT count(*) FROM ${t}_archive)"); archived=$(q "SELECT count(*) FROM ${t}_archive")
      cpu=$(grep -oP 'driver-process-cpu-seconds \K.*' "$OUT/$tag.log" | awk '{print $1+$2}')
      echo "$tag $start demo cycles/s $(python3 -c "print(round($ops/60,1))") whole-process-ms/cycle $(python3 -c "print(round($cpu*1000/$ops,2))") events-added/s $(( (now - seeded) / 60 )) archived/s $(( archived / 60 ))"
    fi
  done
done
