#!/usr/bin/env bash
# The two-hour run and its memory/file sampler.
cd "$(dirname "$0")"   # was /work/long; the jar (bench-tpcc.jar, built at 819d076) beside it
export RESTART_COMMAND='pg_ctlcluster --skip-systemctl-redirect 15 long restart' PGPASSWORD=bench
java -Xmx512m -Xlog:gc:file=gc.log:uptime,level -jar bench-tpcc.jar run --plan plan.yaml \
  --init --warehouses 2 --clients 8 --rate 30 --seed 7 --out run \
  --url 'jdbc:postgresql://localhost:5434/gauntlet_long' --user bench > console.log 2>&1 &
pid=$!
echo "$pid" > java.pid
echo "epoch,elapsed_s,heap_used_kb,heap_committed_kb,old_used_kb,rss_kb,timeline_bytes,hlog_bytes,result_bytes" > samples.csv
t0=$(date +%s)
while kill -0 "$pid" 2> /dev/null; do
  sleep 30
  now=$(date +%s)
  js=$(jstat -gc "$pid" 2> /dev/null | tail -1)
  used=$(echo "$js" | awk '{printf "%d", $3+$4+$6+$8}')
  committed=$(echo "$js" | awk '{printf "%d", $1+$2+$5+$7}')
  old=$(echo "$js" | awk '{printf "%d", $8}')
  rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status 2> /dev/null)
  tl=$(stat -c %s run/timeline.jsonl.gz 2> /dev/null || echo 0)
  hl=$(stat -c %s run/*.hlog 2> /dev/null | head -1 || echo 0)
  rj=$(stat -c %s run/result.json 2> /dev/null || echo 0)
  echo "$now,$((now - t0)),$used,$committed,$old,$rss,$tl,${hl:-0},$rj" >> samples.csv
done
wait "$pid"; echo "exit $?" >> console.log
