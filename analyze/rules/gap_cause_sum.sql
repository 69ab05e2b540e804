-- gap_cause_sum: GPU idle time by cause: the gaps of gap_cause (analyze_gap_causes) summed by
-- cause, call and NVTX range. Times in ns. Most idle time first (ties by cause, call, range), at
-- most rows= rows.
SELECT
  sum(duration) AS "Idle Time (ns)",
  round(100.0 * sum(duration) / (SELECT sum(duration) FROM analyze_gap_causes), 1)
    AS "Idle (%)",                          -- share of the idle time of all listed gaps
  count(*) AS "Gaps",
  cause AS "Cause",
  coalesce(call, '') AS "Call",
  nvtxRange AS "NVTX Range"
FROM analyze_gap_causes
GROUP BY cause, call, nvtxRange
ORDER BY 1 DESC, 4, 5, 6
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
