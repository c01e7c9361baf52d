SELECT 1;
\foo bar
