SELECT 1 AS a \; SELECT 2 AS b \gset p_
SELECT :p_b;
SELECT 3 AS c \; SELECT 4 AS d \aset
SELECT :c + :d;
SELECT 5 \;
\; SELECT 6 AS e;
\gset
