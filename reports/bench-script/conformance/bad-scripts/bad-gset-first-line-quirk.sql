

\gset
SELECT 1;

