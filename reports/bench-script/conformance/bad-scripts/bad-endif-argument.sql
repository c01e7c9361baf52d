\if 0
\endif BAD
