SELECT 1 AS a \gset
\if :a
\gset
\endif
