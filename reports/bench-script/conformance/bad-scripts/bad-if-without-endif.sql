SELECT 1;
\if 1
SELECT 2;
\if 0
\endif
