#!/usr/bin/env bash
# The Patroni lab's tests N times in a row (default 5) with one core kept busy beside them (stress --cpu 1), as a CI
# machine slower than this one, or one with a neighbour, runs them. Each pass: the @Tag("lab") classes, bench-sql's
# PatroniClusterTest, NodeAimedDisruptionsTest and
# LabInAUsersShellTest, bench-tpcc's PatroniAdversityTest (both plans). Stops at the first failure; the surefire
# reports of every pass are kept under reports/ci/lab-under-load/PASS.
# Usage (root, the lab's packages installed, after mvn install -DskipTests): reports/ci/lab-under-load.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-5}"
out=reports/ci/lab-under-load
mkdir -p "$out"
command -v stress > /dev/null || { echo "needs stress (apt-get install stress)"; exit 2; }
stress --cpu 1 > /dev/null 2>&1 &
busy=$!
trap 'kill $busy 2> /dev/null' EXIT
for i in $(seq 1 "$runs"); do
  start=$(date -u +%H:%M:%S)
  SECONDS=0
  if mvn -B -ntp -o verify -pl bench-sql,bench-tpcc -Dgroups=lab \
      -Dsurefire.failIfNoSpecifiedTests=false > "$out/pass-$i.log" 2>&1; then verdict=passed; else verdict=FAILED; fi
  mkdir -p "$out/$i"
  cp bench-sql/target/surefire-reports/*Patroni*.txt bench-sql/target/surefire-reports/*LabInAUsersShell*.txt bench-sql/target/surefire-reports/*NodeAimed*.txt \
     bench-tpcc/target/surefire-reports/*PatroniAdversity*.txt "$out/$i/" 2> /dev/null || true
  echo "pass $i: $verdict, $start UTC, $((SECONDS / 60)) min $((SECONDS % 60)) s, load $(cut -d' ' -f1-3 /proc/loadavg)" \
    | tee -a "$out/passes.txt"
  [ "$verdict" = passed ] || exit 1
done
