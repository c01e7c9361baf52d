SELECT 1 AS a \gset
\gset p_
