#!/bin/bash
# seconds.txt columns: second after the "Running" line, the process CPU (ms) in that second, lines in the log, threads
# usage: cpu-seconds.sh LOG -- command...   from the "Running" line: each second, the process's CPU in that second (ms) and the log's line count
LOG=$1; shift; shift
"$@" > $LOG 2>&1 &
PID=$!
cpu() { s=($(sed 's/^.*) //' /proc/$PID/stat 2>/dev/null)); echo $(( (${s[11]:-0} + ${s[12]:-0}) * 10 )); }
until grep -q "^Running " $LOG 2>/dev/null; do sleep 0.1; done
prev=$(cpu); t=0
while kill -0 $PID 2>/dev/null; do sleep 1; t=$((t+1)); now=$(cpu); [ "$now" -gt 0 ] && echo "$t $((now-prev)) $(wc -l < $LOG) $(ls /proc/$PID/task 2>/dev/null | wc -l)"; prev=$now; done
