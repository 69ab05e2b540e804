-- Diff items of kind gpu_busy: one row per device, "device <deviceId>", with the time at least one
-- kernel, copy or memset ran on it: the length of the union of their [start, end] intervals, so
-- overlapping operations (several streams) count once. ns.
WITH
  ops AS (
    SELECT deviceId, start, end FROM CUPTI_ACTIVITY_KIND_KERNEL
    UNION ALL
    SELECT deviceId, start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY
    UNION ALL
    SELECT deviceId, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET
  ),
  -- the latest end of the device's earlier operations (in start order)
  reached AS (
    SELECT
      deviceId, start, end,
      max(end) OVER (PARTITION BY deviceId ORDER BY start, end
                     ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reached
    FROM ops
  ),
  -- an operation that starts after every earlier one ended begins a new busy interval
  numbered AS (
    SELECT
      deviceId, start, end,
      sum(reached IS NULL OR start > reached) OVER (PARTITION BY deviceId ORDER BY start, end
                                                    ROWS UNBOUNDED PRECEDING) AS busy_interval
    FROM reached
  ),
  intervals AS (
    SELECT deviceId, count(*) AS ops, max(end) - min(start) AS busy
    FROM numbered
    GROUP BY deviceId, busy_interval
  )
SELECT
  -- "device <id>"
  'device ' || deviceId AS name,
  -- GPU operations on the device
  sum(ops) AS instances,
  -- busy time (ns); no median
  sum(busy) AS total,
  NULL AS median
FROM intervals
GROUP BY deviceId;
