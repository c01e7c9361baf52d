#!/bin/bash
# usage: snapshot-ages.sh SAMPLES (beside a jsonb run on port 5435, database rail). Samples, every 0.5 s: oldest client xmin age (xids and statement age), autovacuum activity, claim index reads per scan
export PGPASSWORD=bench
P="psql -h localhost -p 5435 -U bench -d rail -Atq"
prev_read=0; prev_scan=0
for i in $(seq 1 $1); do
  $P -c "select to_char(now(),'HH24:MI:SS.MS'),
    (select max(age(backend_xmin)) from pg_stat_activity where backend_type='client backend'),
    (select max(now()-query_start) from pg_stat_activity where backend_type='client backend' and state='active'),
    (select string_agg(left(query,45)||' xmin_age='||coalesce(age(backend_xmin)::text,'-'), '; ') from pg_stat_activity where backend_type='autovacuum worker'),
    (select idx_scan||'/'||idx_tup_read from pg_stat_user_indexes where indexrelname='train_event_status_open_idx'),
    txid_current()"
  sleep 0.5
done
