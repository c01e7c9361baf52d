#!/usr/bin/env python3
# Writes a psql script that EXPLAIN (ANALYZE, BUFFERS)es train events' statements, old and new, for one variant.
import subprocess, sys, re
variant = sys.argv[1]
def sqls(jar, names):
    out = subprocess.run(['java', '-cp', jar + ':/work/scratch/explain', 'Sql', variant] + names,
                         capture_output=True, text=True, check=True).stdout
    return dict(line.split('\t', 1) for line in out.strip().split('\n'))
def dollars(sql):
    n = [0]
    def rep(m):
        n[0] += 1
        return '$%d' % n[0]
    return re.sub(r'\?', rep, sql)
new = sqls('/tmp/te-ev.jar', ['addSql', 'processSql', 'archiveSql'])
old_names = ['addSql', 'claimSql', 'editSql', 'advanceSql']
old = sqls('/tmp/te-old.jar', old_names)
E = 'EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)'
ids55 = "ARRAY(SELECT gen_random_uuid() FROM generate_series(1, 55))"
p = []
p.append("\\pset pager off")
p.append("SELECT ARRAY(SELECT gen_random_uuid() FROM generate_series(1, 55))::text AS ids55, ARRAY(SELECT (random()*9999)::int FROM generate_series(1, 55))::text AS nums55 \\gset")
p.append("\\echo '### after: add (55 events: ids and document numbers)'")
p.append("BEGIN; PREPARE a(bigint, uuid[], int[]) AS %s;" % dollars(new['addSql']))
p.append("%s EXECUTE a(1764200000000, :'ids55', :'nums55'); ROLLBACK;" % E)
p.append("\\echo '### after: process (claim up to 165, draw next states, edit, advance: one statement)'")
p.append("BEGIN; PREPARE p(int, float8, bigint) AS %s;" % dollars(new['processSql']))
p.append("%s EXECUTE p(165, 0.04, 1764200000000); ROLLBACK;" % E)
# make terminal events for the archive: two committed process steps
p.append("UPDATE train_event_status SET status = CASE WHEN random() < 0.04 THEN 'FAILED' ELSE 'COMPLETE' END, updated_at = now() - interval '1 hour' WHERE event_id IN (SELECT event_id FROM train_event_status ORDER BY updated_at DESC LIMIT 2000);")
p.append("\\echo '### after = before: archive (up to 110 terminal events moved, one statement)'")
p.append("BEGIN; PREPARE r(int) AS %s;" % dollars(new['archiveSql']))
p.append("%s EXECUTE r(110); ROLLBACK;" % E)
payload = "ARRAY(SELECT '{\"eventId\":\"' || gen_random_uuid() || '\",\"emittedAt\":1,' || body FROM train_event_documents ORDER BY random() LIMIT 55)"
flat = old['addSql'].count('?') == 5
p.append("SELECT ARRAY(SELECT '{\"eventId\":\"' || gen_random_uuid() || '\",\"emittedAt\":1,' || body FROM train_event_documents ORDER BY random() LIMIT 55)::text AS docs55, ARRAY(SELECT event_type FROM train_event_documents LIMIT 55)::text AS types55 \\gset")
p.append("SELECT ARRAY(SELECT event_id FROM train_event_status WHERE status IN ('PENDING','PROCESSING') ORDER BY updated_at LIMIT 165)::text AS claimed165 \\gset")
p.append("\\echo '### before: add (55 events: ids, documents%s)'" % (' and flat columns' if flat else ''))
types = "ARRAY(SELECT event_type FROM train_event_documents LIMIT 55)"
if flat:
    p.append("BEGIN; PREPARE b(uuid[], text[], text[], text[], text[]) AS %s;" % dollars(old['addSql']))
    p.append("%s EXECUTE b(:'ids55', :'docs55', :'types55', :'types55', :'types55'); ROLLBACK;" % E)
else:
    p.append("BEGIN; PREPARE b(uuid[], text[]) AS %s;" % dollars(old['addSql']))
    p.append("%s EXECUTE b(:'ids55', :'docs55'); ROLLBACK;" % E)
p.append("\\echo '### before: process, 1 of 3: claim up to 165'")
p.append("BEGIN; PREPARE c(int) AS %s;" % dollars(old['claimSql']))
p.append("%s EXECUTE c(165); ROLLBACK;" % E)
claimed = "ARRAY(SELECT event_id FROM train_event_status WHERE status IN ('PENDING','PROCESSING') ORDER BY updated_at LIMIT 165)"
p.append("\\echo '### before: process, 2 of 3: edit 165 payloads'")
if variant == 'text':
    p.append("BEGIN; PREPARE d(uuid[], text[]) AS %s;" % dollars(old['editSql']))
    p.append("SELECT ARRAY(SELECT regexp_replace(e.payload, '\"lifecycle\":\"[A-Z]+\"', '\"lifecycle\":\"PROCESSING\"') FROM train_events e WHERE e.id = ANY(:'claimed165'::uuid[]))::text AS edited165 \\gset")
    p.append("%s EXECUTE d(:'claimed165', :'edited165'); ROLLBACK;" % E)
else:
    p.append("BEGIN; PREPARE d(uuid[], text[], bigint[]) AS %s;" % dollars(old['editSql']))
    p.append("%s EXECUTE d(:'claimed165', array_fill('PROCESSING'::text, ARRAY[165]), array_fill(1764200000000::bigint, ARRAY[165])); ROLLBACK;" % E)
p.append("\\echo '### before: process, 3 of 3: advance 165 status rows'")
p.append("BEGIN; PREPARE e(uuid[], text[]) AS %s;" % dollars(old['advanceSql']))
p.append("%s EXECUTE e(:'claimed165', array_fill('PROCESSING'::text, ARRAY[165])); ROLLBACK;" % E)
print('\n'.join(p))
