#!/bin/bash
# variants: NAME=java opts|run args ; pgbench always included
cd /work/main
export PGHOST=localhost PGUSER=bench PGPASSWORD=bench PGDATABASE=bench_script_sbs
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
B=${B:-select-only}; C=${C:-32}; T=${T:-20}
out=/tmp/vt/out2; mkdir -p $out
for pair in ${PAIRS:-1 2}; do
 echo "pgbench|" > /tmp/vt/variants.$$; printf '%s\n' "$@" >> /tmp/vt/variants.$$
 while IFS='|' read -r name opts args; do
  [ -z "$name" ] && continue
  if [ "$name" = pgbench ]; then
   /usr/bin/time -f 'CPU %U %S' /usr/lib/postgresql/15/bin/pgbench -b $B -c $C -j 2 -T $T -M prepared > $out/$name-$pair.log 2>&1
  else
   rm -rf $out/d; /usr/bin/time -f 'CPU %U %S' ${JAVA:-$J25} $opts -jar bench-script/target/bench-script.jar run -b $B -c $C -j 2 -T $T -M prepared $args --url jdbc:postgresql://localhost/bench_script_sbs --user bench --password bench --out $out/d > $out/$name-$pair.log 2>&1
  fi
  tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' $out/$name-$pair.log); cpu=$(awk '/^CPU /{print $2+$3}' $out/$name-$pair.log)
  n=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' $out/$name-$pair.log)
  m=$(sed -n 's/^driverCpuPerOperationMs: //p' $out/$name-$pair.log)
  echo "$B-c$C $pair $name tps=$tps cpu/txn=$(awk -v c=$cpu -v n=$n 'BEGIN{printf "%.4f",1000*c/n}') measured=$m"
 done < /tmp/vt/variants.$$
done
