#!/usr/bin/env bash
# Two capacity searches in a row with the same command, for reports/capacity.md: do they agree within the resolution?
# Usage: reports/capacity/search-twice.sh OUT_DIR -- BENCH-SCRIPT RUN OPTIONS...
#   e.g. reports/capacity/search-twice.sh reports/capacity/select-only -- -b select-only -c 8 -j 2 -M prepared \
#        --duration 10s --url jdbc:postgresql://localhost:5432/bench_script_sbs --user bench --password bench
# BEFORE (optional): a command run before each search, e.g. a pgbench -i that puts the tables back as they were.
# Each search's directory keeps search.md, capacity.png and each step's result.json and report.md (capacity.html,
# which inlines uPlot, the logs and ledgers are left out, as in the other reports).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$1; shift; [ "$1" = "--" ] && shift
jar=${JAR:-bench-script/target/bench-script.jar}
mkdir -p "$out"
for n in 1 2; do
  dir="$out/search-$n"
  rm -rf "$dir"
  if [ -n "${BEFORE:-}" ]; then bash -c "$BEFORE" > "$out/before-$n.log" 2>&1; fi
  echo "== search $n: $(date -u +%FT%TZ)" | tee -a "$out/runs.log"
  java -jar "$jar" run "$@" --find-max-rate --out "$dir" > "$out/search-$n.log" 2>&1 || echo "exit $?" >> "$out/runs.log"
  grep -m1 '^\*\*' "$dir/search.md" | tee -a "$out/runs.log"
  find "$dir" -type f ! -name result.json ! -name report.md ! -name search.md ! -name capacity.png -delete
done
