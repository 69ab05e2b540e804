-- analyze_cpu_spans, from the GPU gaps: the time spans whose CPU activity analyze_span_threads and
-- analyze_span_functions describe, here every gap of analyze_gap_causes (the gaps of gap_cause),
-- as a TEMP table; none when the report has no CPU sample. Rebuilt for every rule run.
--   spanId (gap_cause's Row#), start, end (ns), pid (the gap's process: only its threads count)
--   onlyTid: NULL (every thread of the process)
--   feedTid: the thread that launched the work ending the gap (listed even when it did nothing)
DROP TABLE IF EXISTS temp.analyze_cpu_spans;
CREATE TEMP TABLE analyze_cpu_spans AS
SELECT gapId AS spanId, gapStart AS start, gapEnd AS end, pid, NULL AS onlyTid, tid AS feedTid
FROM analyze_gap_causes
WHERE EXISTS (SELECT 1 FROM analyze_cpu_samples);
