\
SELECT 1;
\
