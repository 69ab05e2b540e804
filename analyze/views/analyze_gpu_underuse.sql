-- analyze_gpu_underuse: the windows in which a GPU was busy but underused, for gpu_underuse and
-- summary. A window is an instance of the step range (analysis_steady_state) inside the rule's
-- window, or, without a step range, the rule's window (each device's kernels' span in it). In a
-- window a device is busy but underused when its kernels, merged into busy intervals (concurrent
-- kernels count once), cover at least busy= % (default 90) of the window while the mean of its
-- "SMs Active [Throughput %]" samples in the window, or of "SM Issue [Throughput %]" where the GPU
-- has no SMs Active samples, is at most sm= % (default 30). Samples are gpu_metric_samples' (a
-- sample belongs to [start, end)); a device is a GPU id (the metrics' typeId low byte, the kernels'
-- deviceId).
-- Two TEMP tables, rebuilt per rule run (each may have another window); both empty unless the
-- report has GPU_METRICS rows, so rules cost nothing more without metrics:
--   analyze_gpu_underuse: one row per busy-but-underused window and device:
--     label (the step range's name, or '' for the rule's window), start, end (ns), device,
--     windows (the device's windows, underused or not), busyTime (ns), busy (% of the window),
--     smActive, smIssue, tensorActive (means of those metrics' samples, NULL without samples), used
--     (the mean judged: smActive, else smIssue);
--   analyze_gpu_underuse_kernels: the kernels of those windows: device, start (the window's),
--     name (shortName), time (ns of the kernel inside the window).
-- Costs: busy time per window is two index searches in the busy intervals (busy time before a
-- moment is the busy time of the intervals before it plus the part of the one it falls in); a
-- window's kernels are an index range bounded by the longest kernel.
DROP TABLE IF EXISTS temp.analyze_metric_kernels;
CREATE TEMP TABLE analyze_metric_kernels AS
SELECT k.deviceId AS device, k.start, k.end, coalesce(name.value, '') AS name
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
LEFT JOIN StringIds AS name ON name.id = k.shortName
WHERE k.start > 0 AND EXISTS (SELECT 1 FROM GPU_METRICS);
CREATE INDEX temp.analyze_metric_kernels_by_start ON analyze_metric_kernels (device, start);

DROP TABLE IF EXISTS temp.analyze_busy_intervals;
CREATE TEMP TABLE analyze_busy_intervals AS
WITH
  ordered AS (
    SELECT device, start, end,
           max(end) OVER (PARTITION BY device ORDER BY start, end
                          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS previousEnd
    FROM analyze_metric_kernels
  ),
  numbered AS (
    SELECT device, start, end,
           sum(previousEnd IS NULL OR start > previousEnd)
             OVER (PARTITION BY device ORDER BY start, end ROWS UNBOUNDED PRECEDING) AS interval
    FROM ordered
  ),
  intervals AS (
    SELECT device, min(start) AS start, max(end) AS end FROM numbered GROUP BY device, interval
  )
SELECT device, start, end,
       coalesce(sum(end - start) OVER (PARTITION BY device ORDER BY start
                                       ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
         AS busyBefore
FROM intervals;
CREATE INDEX temp.analyze_busy_intervals_by_start ON analyze_busy_intervals (device, start);

DROP TABLE IF EXISTS temp.analyze_gpu_underuse;
CREATE TEMP TABLE analyze_gpu_underuse AS
WITH
  bounds AS (
    SELECT coalesce((SELECT start FROM analysis_window), -(1 << 62)) AS start,
           coalesce((SELECT end FROM analysis_window), 1 << 62) AS end
  ),
  steps AS (
    SELECT r.name, r.start, r.end
    FROM nvtx_ranges AS r, bounds AS b
    WHERE r.name = (SELECT name FROM analysis_steady_state) AND r.start >= b.start
      AND r.end <= b.end
  ),
  devices AS (
    SELECT k.device, max(min(k.start), b.start) AS start, min(max(k.end), b.end) AS end
    FROM analyze_metric_kernels AS k, bounds AS b
    GROUP BY k.device
  ),
  windows AS (
    SELECT s.name AS label, s.start, s.end, d.device
    FROM steps AS s CROSS JOIN devices AS d
    UNION ALL
    SELECT '', start, end, device FROM devices WHERE NOT EXISTS (SELECT 1 FROM steps)
  ),
  -- Busy time from the device's first kernel to each window end (ns).
  busy_to AS (
    SELECT w.*, count(*) OVER (PARTITION BY w.device) AS windows,
      coalesce((SELECT i.busyBefore + min(w.end, i.end) - i.start FROM analyze_busy_intervals AS i
                WHERE i.device = w.device AND i.start <= w.end ORDER BY i.start DESC LIMIT 1), 0)
      - coalesce((SELECT i.busyBefore + min(w.start, i.end) - i.start
                  FROM analyze_busy_intervals AS i
                  WHERE i.device = w.device AND i.start <= w.start ORDER BY i.start DESC LIMIT 1),
                 0) AS busyTime
    FROM windows AS w
    WHERE w.end > w.start
  ),
  measured AS (
    SELECT b.*, 100.0 * b.busyTime / (b.end - b.start) AS busy,
      (SELECT avg(value) FROM gpu_metric_samples AS s
       WHERE s.timestamp >= b.start AND s.timestamp < b.end AND s.gpu = b.device
         AND s.metric = 'SMs Active [Throughput %]') AS smActive,
      (SELECT avg(value) FROM gpu_metric_samples AS s
       WHERE s.timestamp >= b.start AND s.timestamp < b.end AND s.gpu = b.device
         AND s.metric = 'SM Issue [Throughput %]') AS smIssue,
      (SELECT avg(value) FROM gpu_metric_samples AS s
       WHERE s.timestamp >= b.start AND s.timestamp < b.end AND s.gpu = b.device
         AND s.metric = 'Tensor Active [Throughput %]') AS tensorActive
    FROM busy_to AS b
  )
SELECT label, start, end, device, windows, busyTime, busy, smActive, smIssue, tensorActive,
       coalesce(smActive, smIssue) AS used
FROM measured
WHERE busy >= (SELECT value FROM rule_options WHERE name = 'busy')
  AND coalesce(smActive, smIssue) <= (SELECT value FROM rule_options WHERE name = 'sm');

DROP TABLE IF EXISTS temp.analyze_gpu_underuse_kernels;
CREATE TEMP TABLE analyze_gpu_underuse_kernels AS
SELECT w.device, w.start, k.name, sum(min(k.end, w.end) - max(k.start, w.start)) AS time
FROM analyze_gpu_underuse AS w
JOIN analyze_metric_kernels AS k
  ON k.device = w.device AND k.start < w.end AND k.end > w.start
 AND k.start >= w.start - (SELECT max(end - start) FROM analyze_metric_kernels)
GROUP BY w.device, w.start, k.name;
