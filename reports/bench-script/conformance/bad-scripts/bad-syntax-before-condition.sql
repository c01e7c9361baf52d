\endif
\foo
