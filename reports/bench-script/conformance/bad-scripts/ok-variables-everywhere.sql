SELECT :x AS a, ':x' AS b, $$:x$$ AS c, :x::int AS d /* :x */, :{?x} AS e, \:y AS f, 'a:::x' AS g, ':{?x}' AS h;
SELECT 1 AS i -- :'x' :{?x} :x :nope in a comment
\; SELECT 2;
