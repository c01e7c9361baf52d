SELECT 1;
\if 1 = \
  1 ? 2
\endif
