\set x \
   
SELECT 1;
