SELECT 0;
\if 1
  \if 0
    SELECT 1;
  \elif 0
    SELECT 2;
  \elif 1
    SELECT 3;
  \else
    SELECT 4;
  \endif
  SELECT 5;
\else
  SELECT 6;
\endif
\if 0
SELECT 7;
\endif
SELECT 8;
