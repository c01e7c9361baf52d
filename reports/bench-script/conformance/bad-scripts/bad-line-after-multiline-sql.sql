SELECT 1,
  2; -- two lines
\set x 1 + \
  2
/* a
 comment */ SELECT 'a
b';

\bogus
