#!/bin/bash
# pua-patroni, synchronous then asynchronous, one after the other, nothing else running.
cd /work/main
for s in sync async; do
  /usr/bin/time -v java -jar bench-tpcc/target/bench-tpcc.jar run --plan pua-patroni --standby $s --init --warehouses 2 --clients 8 \
     --seed 7 --out reports/adversity/patroni/pua-$s > /tmp/pua-$s.log 2>&1
  echo "$s exit $?" >> /tmp/pua.done
done
