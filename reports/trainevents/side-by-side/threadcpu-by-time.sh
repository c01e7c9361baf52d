#!/bin/bash
# usage: tc.sh LOG T1 T2 -- command... : per-thread-name CPU between T1 and T2 seconds after start
LOG=$1; T1=$2; T2=$3; shift 4
"$@" > $LOG 2>&1 &
PID=$!
sleep 1; JPID=$(pgrep -P $PID java || echo $PID)
snap() { for t in /proc/$JPID/task/*; do read -r comm < $t/comm; s=($(sed 's/^.*) //' $t/stat)); echo "${comm// /_} ${s[11]} ${s[12]}"; done | sed -E 's/-[0-9]+ / /; s/#[0-9]+ / /' | awk '{u[$1]+=$2; s[$1]+=$3} END {for (k in u) print k, u[k], s[k]}' | sort; }
sleep $((T1-1)); snap > $LOG.s1; sleep $((T2-T1)); snap > $LOG.s2
wait $PID
join -a2 -e0 -o 0,1.2,1.3,2.2,2.3 $LOG.s1 $LOG.s2 | awk -v w=$((T2-T1)) '{u=$4-$2; s=$5-$3; if (u+s>0) {printf "%d ms/s (user %d sys %d) %s\n", (u+s)*10/w, u*10/w, s*10/w, $1; tot+=(u+s)*10/w}} END {print tot " ms/s total"}' | sort -rn | head -14
