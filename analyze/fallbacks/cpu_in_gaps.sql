-- cpu_in_gaps on a report without GPU operations (CPU-only): where the CPU time of the window
-- (the steady state by default; analyze_window_spans) went, one row per thread that was sampled
-- or ran in it, or switched CPU inside it (analyze_span_threads). Times in ns. Rows by samples,
-- most first (ties by PID, TID); at most rows= rows.
WITH
  total AS (SELECT sum(samples) AS samples FROM analyze_span_threads)
SELECT
  (thread.globalTid >> 24) & 0xFFFFFF AS "PID",
  thread.globalTid & 0xFFFFFF AS "TID",
  coalesce((SELECT name.value FROM ThreadNames AS names
            JOIN StringIds AS name ON name.id = names.nameId
            WHERE names.globalTid = thread.globalTid
            ORDER BY names.rowid DESC LIMIT 1), '') AS "Thread",
  thread.samples AS "Samples",                      -- its CPU samples in the window
  round(100.0 * thread.samples / total.samples, 1) AS "Samples (%)",  -- of all threads' samples
  thread.running AS "Running (ns)",                 -- on a CPU (SCHED_EVENTS; empty without)
  thread.blocked AS "Blocked (ns)",                 -- off the CPU, blocked
  thread.preempted AS "Preempted (ns)",             -- off the CPU, runnable
  coalesce(top.functions, '') AS "Top Functions",   -- '<self samples> <function>; ...'
  coalesce(blocked.ns || ' ' || blocked.stack, '') AS "Blocked In"  -- '<ns> <call> ← <frame> ← ...'
FROM analyze_span_threads AS thread, total
LEFT JOIN analyze_span_top_functions AS top
  ON top.spanId = thread.spanId AND top.globalTid = thread.globalTid
LEFT JOIN analyze_span_blocked_in AS blocked
  ON blocked.spanId = thread.spanId AND blocked.globalTid = thread.globalTid
WHERE thread.listed
ORDER BY thread.samples DESC, 1, 2
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
