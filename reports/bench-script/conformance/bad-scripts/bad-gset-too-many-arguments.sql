SELECT 1 AS a \gset a b
