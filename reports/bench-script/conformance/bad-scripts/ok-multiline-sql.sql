-- leading comment; with a semicolon
  /* block
     comment; */ SELECT 1,
  2 -- trailing ; comment
  , 3;  -- after the semicolon
SELECT 'semi;colon', "quoted;ident" FROM (SELECT 4 AS "quoted;ident") t
;


   SELECT 5
;SELECT 6;
