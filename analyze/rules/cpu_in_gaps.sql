-- cpu_in_gaps: what the CPU threads did while a GPU was idle. For every gap of gap_cause (longer
-- than gap= us; analyze_gap_causes), one row per thread of the gap's process that was sampled or
-- ran in it, switched CPU inside it, or launched the work ending it (analyze_span_threads).
-- Times in ns. Rows by gap (gap_cause's order: longest first), then most samples, then TID; at
-- most rows= rows. On a report without GPU operations the rule runs fallbacks/cpu_in_gaps.sql.
SELECT
  span.spanId AS "Gap",                             -- gap_cause's Row#
  span.start AS "Gap Start (ns)",                   -- end of the operation before the gap
  span.end - span.start AS "Gap Duration (ns)",
  span.pid AS "PID",
  thread.globalTid & 0xFFFFFF AS "TID",
  coalesce((SELECT name.value FROM ThreadNames AS names
            JOIN StringIds AS name ON name.id = names.nameId
            WHERE names.globalTid = thread.globalTid
            ORDER BY names.rowid DESC LIMIT 1), '') AS "Thread",
  thread.samples AS "Samples",                      -- its CPU samples in the gap
  thread.running AS "Running (ns)",                 -- on a CPU (SCHED_EVENTS; empty without)
  thread.blocked AS "Blocked (ns)",                 -- off the CPU, blocked
  thread.preempted AS "Preempted (ns)",             -- off the CPU, runnable
  coalesce(top.functions, '') AS "Top Functions",   -- '<self samples> <function>; ...'
  coalesce(blocked.ns || ' ' || blocked.stack, '') AS "Blocked In"  -- '<ns> <call> ← <frame> ← ...'
FROM analyze_span_threads AS thread
JOIN analyze_cpu_spans AS span ON span.spanId = thread.spanId
LEFT JOIN analyze_span_top_functions AS top
  ON top.spanId = thread.spanId AND top.globalTid = thread.globalTid
LEFT JOIN analyze_span_blocked_in AS blocked
  ON blocked.spanId = thread.spanId AND blocked.globalTid = thread.globalTid
WHERE thread.listed
ORDER BY span.spanId, thread.samples DESC, thread.globalTid
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
