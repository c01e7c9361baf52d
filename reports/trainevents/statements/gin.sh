#!/bin/bash
# EXPLAIN (ANALYZE, BUFFERS) of the jsonb variant's add and process statements with the payload's GIN index in each
# operator class (jsonb_path_ops, now; jsonb_ops, before), on 100,000 PENDING events, rolled back.
# usage: gin.sh JAR URL-of-psql  (e.g. gin.sh bench-trainevents.jar postgresql://bench@localhost:5435/rail; PGPASSWORD set)
set -eu
JAR=$1; DB=$2; HERE=$(cd "$(dirname "$0")" && pwd)
HELP=$(mktemp -d); javac -d "$HELP" "$HERE/Sql.java"
sql() { java -cp "$JAR:$HELP" Sql jsonb "$1" | cut -f2- | perl -pe 'my $n=0; s/\?/"\$".++$n/ge'; }
ADD=$(sql addSql); PROCESS=$(sql processSql)
java -jar "$JAR" init --drop --variant jsonb --seed-events 100000 --url "jdbc:${DB/postgresql:\/\/bench@/postgresql://}" --user bench >/dev/null
explain() {
  psql -X -q "$DB" <<SQL
\pset pager off
VACUUM ANALYZE;
SELECT ARRAY(SELECT gen_random_uuid() FROM generate_series(1, 55))::text AS ids55, ARRAY(SELECT (random()*9999)::int FROM generate_series(1, 55))::text AS nums55 \gset
\echo '### $1: add (55 events)'
BEGIN; PREPARE a(bigint, uuid[], int[]) AS $ADD;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) EXECUTE a(1764200000000, :'ids55', :'nums55'); ROLLBACK;
\echo '### $1: process (claim up to 165, edit, advance)'
BEGIN; PREPARE p(int, float8, bigint) AS $PROCESS;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) EXECUTE p(165, 0.04, 1764200000000); ROLLBACK;
SELECT pg_size_pretty(pg_relation_size('train_events_payload_idx')) AS "GIN index size";
SQL
}
explain "jsonb_path_ops (now)"
psql -X -q "$DB" -c "DROP INDEX train_events_payload_idx" -c "CREATE INDEX train_events_payload_idx ON train_events USING gin (payload)"
explain "jsonb_ops (before)"
