\if
\endif
