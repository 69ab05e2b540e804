-- gpu_gaps: stretches longer than gap= ms (default 500) in which a device of a process runs no
-- GPU operation, between its first operation's start and its last one's end (analyze_gpu_ops:
-- profiler overhead counts as busy). Longest first (ties by start), at most rows= rows.
--
-- Starts and ends are numbered separately in time order per device; the n-th end and the
-- (n+1)-th start bound a gap exactly when that end comes first: before it n operations started
-- and n ended, so none runs.
WITH
  starts AS (
    SELECT ROW_NUMBER() OVER (PARTITION BY pid, deviceId ORDER BY start) AS n, start, pid, deviceId
    FROM analyze_gpu_ops
  ),
  ends AS (
    SELECT ROW_NUMBER() OVER (PARTITION BY pid, deviceId ORDER BY end) AS n, end, pid, deviceId,
           contextId
    FROM analyze_gpu_ops
  ),
  gaps AS (
    SELECT starts.start - ends.end AS duration, ends.end AS gapStart, ends.pid, ends.deviceId,
           ends.contextId
    FROM starts
    JOIN ends ON ends.n = starts.n - 1 AND ends.pid = starts.pid AND ends.deviceId = starts.deviceId
    WHERE starts.start - ends.end > (SELECT value FROM rule_options WHERE name = 'gap') * 1000000
  )
SELECT
  ROW_NUMBER() OVER (ORDER BY duration DESC, gapStart) AS "Row#",
  duration AS "Duration (ns)",       -- idle time
  gapStart AS "Start (ns)",          -- end of the operation before the gap
  pid AS "PID",
  deviceId AS "Device ID",
  contextId AS "Context ID"          -- context of the operation before the gap
FROM gaps
ORDER BY 1
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
