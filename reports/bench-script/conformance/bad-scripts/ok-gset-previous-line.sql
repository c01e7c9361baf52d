SELECT 1 AS a;
\gset
SELECT :a;
SELECT 2 AS b
\gset q_
SELECT :q_b;
