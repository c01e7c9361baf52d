\set x 1 + \
  2
\set \
 y 3
\sleep 0\
 ms
\setshell v echo \
 4
\shell true \
 ::not-a-variable
SELECT :x + :y + :v;
