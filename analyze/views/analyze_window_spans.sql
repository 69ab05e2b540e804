-- analyze_cpu_spans, from the rule's window: one span (spanId 1), the window of start=, end=,
-- nvtx= or the steady state (analysis_window), else the report's CPU data from its first sample
-- or thread switch to its last, as a TEMP table. Rebuilt for every rule run.
--   spanId, start, end (ns)
--   pid, onlyTid: the process (an nvtx= start/end range) or thread (a push/pop range) the window
--     is restricted to; NULL: every one
--   feedTid: NULL (a CPU-only report has no thread feeding a GPU)
DROP TABLE IF EXISTS temp.analyze_cpu_spans;
CREATE TEMP TABLE analyze_cpu_spans AS
WITH
  bounds AS (SELECT start, end, globalTid, scope FROM analysis_window),
  cpu_data AS (
    SELECT min(start) AS start, max(start) + 1 AS end
    FROM (SELECT start FROM analyze_cpu_samples UNION ALL SELECT start FROM thread_states
          UNION ALL SELECT end FROM thread_states)
  )
SELECT 1 AS spanId, coalesce(bounds.start, cpu_data.start) AS start,
       coalesce(bounds.end, cpu_data.end) AS end,
       CASE WHEN bounds.scope IS NOT NULL THEN (bounds.globalTid >> 24) & 0xFFFFFF END AS pid,
       CASE WHEN bounds.scope = 'thread' THEN bounds.globalTid END AS onlyTid, NULL AS feedTid
FROM cpu_data LEFT JOIN bounds ON 1
WHERE cpu_data.start IS NOT NULL;
