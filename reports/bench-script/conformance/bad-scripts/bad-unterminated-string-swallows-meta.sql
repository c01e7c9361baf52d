\if 1
SELECT 'abc;
\endif
