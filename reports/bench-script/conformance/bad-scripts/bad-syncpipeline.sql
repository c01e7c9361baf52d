\startpipeline
SELECT 1;
\syncpipeline
\endpipeline
