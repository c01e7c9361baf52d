#!/bin/bash
# plans/examples/patroni.yaml for real: a lab started by hand (lab up), the plan through --url and patronictl.
set -u
cd /work/main
J="java -jar bench-tpcc/target/bench-tpcc.jar"
$J lab up --standby sync --database tpcc > /tmp/ex-lab.log 2>&1 &
LAB=$!
for i in $(seq 1 120); do grep -q "Ctrl-C takes it down" /tmp/ex-lab.log && break; sleep 1; done
cat /tmp/ex-lab.log
DIR=$(grep "files:" /tmp/ex-lab.log | awk '{print $2}')
TAG=$(basename "$DIR")
export PATRONI_CONFIG=$DIR/n1/patroni.yml PATRONI_CLUSTER=gauntlet-$TAG
export PGPASSWORD=$(grep "password:" /tmp/ex-lab.log | awk '{print $4}')
URL=$(grep "multi-host:" /tmp/ex-lab.log | awk '{print $2}' | sed 's#/postgres?#/tpcc?#')
patronictl -c "$PATRONI_CONFIG" list -f json > /tmp/ex-members.json
export PATRONI_LEADER=$(python3 -c "import json;print([m['Member'] for m in json.load(open('/tmp/ex-members.json')) if m['Role']=='Leader'][0])")
export PATRONI_REPLICA=$(python3 -c "import json;print([m['Member'] for m in json.load(open('/tmp/ex-members.json')) if m['Role'] in ('Sync Standby','Sync standby')][0])")
echo "leader $PATRONI_LEADER replica $PATRONI_REPLICA url $URL"
$J run --plan plans/examples/patroni.yaml --dry-run --url "$URL" | head -5
$J run --plan plans/examples/patroni.yaml --init --warehouses 4 --url "$URL" --user postgres \
   --out reports/adversity/patroni/example-url
echo "run exit $?"
patronictl -c "$PATRONI_CONFIG" list
kill -TERM $LAB; wait $LAB
echo "lab down; left: $(ls /var/tmp/gauntlet/lab | wc -l) dirs, $(ip netns list | grep -c '^gl') namespaces"
