-- analyze_span_functions: per span of analyze_cpu_spans, thread and function, the thread's samples
-- taken in the function itself (self samples: the function is the sample's leaf frame).
--   spanId, globalTid, function, samples
--   rank: 1 for the thread's function with the most samples in the span (ties by name)
CREATE TEMP VIEW IF NOT EXISTS analyze_span_functions AS
SELECT spanId, globalTid, function, samples,
       ROW_NUMBER() OVER (PARTITION BY spanId, globalTid ORDER BY samples DESC, function) AS rank
FROM (SELECT spanId, globalTid, function, count(*) AS samples
      FROM analyze_span_samples
      GROUP BY spanId, globalTid, function);
