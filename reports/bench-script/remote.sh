#!/usr/bin/env bash
# side-by-side.sh with the server one network hop away: both tools reach the Debian PostgreSQL through a Toxiproxy
# (v2.12.0) that delays every answer by LATENCY_MS, as a driver on another host sees its server (this kernel has no
# tc netem). Same environment as side-by-side.sh (CONFIGS, PAIRS, SECONDS_PER_RUN, ...); the tables must exist
# (side-by-side.sh's init, or pgbench -i -s 10 bench_script_sbs).
#
#   reports/bench-script/remote.sh [OUT_DIR]
# Environment: LATENCY_MS (1), TOXIPROXY_SERVER (toxiproxy-server on the PATH, else ~/go/bin/server:
#              go install github.com/Shopify/toxiproxy/v2/cmd/server@v2.12.0), PROXY_PORT (25432), API_PORT (8474)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-reports/bench-script/side-by-side-remote}
mkdir -p "$out"
latency=${LATENCY_MS:-1}
proxy_port=${PROXY_PORT:-25432}
api_port=${API_PORT:-8474}
server=${TOXIPROXY_SERVER:-$(command -v toxiproxy-server || echo "$HOME/go/bin/server")}
: "${PGHOST:=localhost}" "${PGPORT:=5432}" "${PGUSER:=bench}" "${PGPASSWORD:=bench}" "${PGDATABASE:=bench_script_sbs}"
export PGUSER PGPASSWORD PGDATABASE
upstream="$PGHOST:$PGPORT"

LOG_LEVEL=warn "$server" -host 127.0.0.1 -port "$api_port" > "$out/toxiproxy.log" 2>&1 &
toxiproxy=$!
trap 'kill $toxiproxy 2> /dev/null || true' EXIT
api="http://127.0.0.1:$api_port"
for _ in $(seq 50); do curl -fs "$api/version" > /dev/null && break; sleep 0.1; done
curl -fs -X POST "$api/proxies" -d "{\"name\":\"pg\",\"listen\":\"127.0.0.1:$proxy_port\",\"upstream\":\"$upstream\"}" > /dev/null
curl -fs -X POST "$api/proxies/pg/toxics" \
  -d "{\"name\":\"hop\",\"type\":\"latency\",\"stream\":\"downstream\",\"attributes\":{\"latency\":$latency}}" > /dev/null
echo "== Toxiproxy $("$server" -version 2>&1 | head -1): 127.0.0.1:$proxy_port -> $upstream, +$latency ms on every answer" \
  | tee "$out/proxy.txt"
# one round trip through it, as both tools will see it
PGHOST=127.0.0.1 PGPORT=$proxy_port psql -c '\timing on' -c 'SELECT 1' -c 'SELECT 1' | grep Time \
  | tee -a "$out/proxy.txt"

PGHOST=127.0.0.1 PGPORT=$proxy_port SKIP_INIT=1 CONFIGS=${CONFIGS:-"tpcb-like:8 tpcb-like:32"} \
  reports/bench-script/side-by-side.sh "$out"
