DO $$ BEGIN PERFORM 1; PERFORM 2; END $$;
DO $body$
DECLARE s text := $q$;$q$ || $$\set$$;
BEGIN PERFORM s; END
$body$;
SELECT E'it\'s; \\' AS a, 'x'
  'y;z' AS b;
SELECT a$b$c FROM (SELECT 1 AS "a$b$c") t;
