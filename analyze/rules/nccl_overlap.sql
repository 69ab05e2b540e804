-- nccl_overlap: per process (rank) and device, how much NCCL kernel time compute kernels hide,
-- and how often the rank was the last to reach a collective. Times in ns.
-- NCCL kernels are those of analyze_nccl_kernels (base name starting with "nccl"); compute
-- kernels are the device's other kernels, merged into busy intervals first so that concurrent
-- ones count once. An NCCL kernel no compute kernel overlaps stalls the step for its whole time
-- (communication is not hidden behind backward compute).
-- One row per process and device with an NCCL kernel, by PID then device, at most rows= rows.
WITH
  compute AS (
    SELECT pid, deviceId, start, end,
           max(end) OVER (PARTITION BY pid, deviceId ORDER BY start, end
                          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reachedEnd
    FROM analyze_nccl_kernels WHERE isNccl = 0
  ),
  -- A compute kernel opens a new busy interval when it starts after every earlier one ended.
  numbered AS (
    SELECT pid, deviceId, start, end,
           sum(CASE WHEN reachedEnd IS NULL OR start > reachedEnd THEN 1 ELSE 0 END)
             OVER (PARTITION BY pid, deviceId ORDER BY start, end ROWS UNBOUNDED PRECEDING)
             AS busyId
    FROM compute
  ),
  busy AS (
    SELECT pid, deviceId, min(start) AS start, max(end) AS end
    FROM numbered GROUP BY pid, deviceId, busyId
  ),
  nccl AS (
    SELECT k.pid, k.rank, k.deviceId, k.end - k.start AS duration,
           coalesce((SELECT sum(min(k.end, b.end) - max(k.start, b.start)) FROM busy AS b
                     WHERE b.pid = k.pid AND b.deviceId = k.deviceId
                       AND b.start < k.end AND b.end > k.start), 0) AS overlapped
    FROM analyze_nccl_kernels AS k WHERE k.isNccl = 1
  ),
  last_arrivals AS (
    SELECT lastPid AS pid, count(*) AS times FROM analyze_nccl_collectives
    WHERE lastPid IS NOT NULL GROUP BY lastPid
  )
SELECT
  nccl.pid AS "PID",
  nccl.rank AS "Rank",                                   -- MPI_RANKS; empty without
  nccl.deviceId AS "Device ID",
  count(*) AS "NCCL Kernels",
  sum(duration) AS "NCCL Time (ns)",                     -- summed NCCL kernel durations
  sum(overlapped) AS "Overlapped Time (ns)",             -- NCCL time under compute kernels
  round(100.0 * sum(overlapped) / sum(duration), 1) AS "Overlap (%)",
  coalesce(max(last_arrivals.times), 0) AS "Last Arrivals"  -- collectives it started last
FROM nccl LEFT JOIN last_arrivals ON last_arrivals.pid = nccl.pid
GROUP BY nccl.pid, nccl.deviceId
ORDER BY nccl.pid, nccl.deviceId
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
