SELECT 'a \gset b' AS a, $$\set x$$ AS b, "\sleep" FROM (SELECT 1 AS "\sleep") t;
SELECT 'c' -- \bogus in a comment
;
SELECT 'd' /* \bogus
  in a block comment */;
