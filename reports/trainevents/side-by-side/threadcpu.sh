#!/bin/bash
# usage: threadcpu.sh LOG -- command...   snapshots per-thread CPU at the "10" and "60" interval rows
LOG=$1; shift; shift
"$@" > $LOG 2>&1 &
PID=$!
snap() { for t in /proc/$PID/task/*; do read -r comm < $t/comm; s=($(sed 's/^.*) //' $t/stat)); echo "${comm// /_} ${s[11]} ${s[12]}"; done | awk '{u[$1]+=$2; s[$1]+=$3} END {for (k in u) print k, u[k], s[k]}' | sort; }
until [ "$(grep -c "│ __cycle__" $LOG 2>/dev/null)" -ge ${R1:-2} ]; do sleep 0.2; done; date +%s.%N > $LOG.t1
snap > $LOG.snap1
until [ "$(grep -c "│ __cycle__" $LOG 2>/dev/null)" -ge ${R2:-7} ]; do sleep 0.2; done; date +%s.%N > $LOG.t2
snap > $LOG.snap2
wait $PID
echo "window $(echo "$(cat $LOG.t2) - $(cat $LOG.t1)" | bc) s"
join -a2 -e0 -o 0,1.2,1.3,2.2,2.3 $LOG.snap1 $LOG.snap2 | awk '{u=$4-$2; s=$5-$3; if (u+s>0) {print (u+s)*10 " ms (user " u*10 ", sys " s*10 ")", $1; tot+=(u+s)*10}} END {print tot " ms total"}' | sort -rn | head -25
