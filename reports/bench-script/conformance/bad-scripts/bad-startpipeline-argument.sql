\startpipeline now
SELECT 1;
\endpipeline
