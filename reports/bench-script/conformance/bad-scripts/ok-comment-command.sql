/* only a comment */
SELECT 1;
