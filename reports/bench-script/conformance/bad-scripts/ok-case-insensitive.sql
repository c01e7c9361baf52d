\SET x 1
\Sleep 1 US
\IF :x = 1
SELECT :x;
\ENDIF
