\startpipeline
SELECT :x;
SELECT :x::int + :x::int;
\endpipeline
