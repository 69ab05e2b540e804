-- analyze_device_overlap: per device of a process, its kernels and copies in the current window
-- (analyze_stream_ops) and how much copy time kernels hide. Times in ns. One row per process and
-- device with a kernel or a copy:
--   pid, deviceId, kernels, kernelTime (summed durations), shortKernels (under 10 us), shortTime,
--   launchLatency (median of kernel start - start of its launching call; NULL without calls),
--   copies, copyTime (summed), overlapped (copy time during which a kernel of the device ran:
--   kernels are merged into busy intervals first, so concurrent kernels count once)
CREATE TEMP VIEW IF NOT EXISTS analyze_device_overlap AS
WITH
  kernels AS (SELECT * FROM analyze_stream_ops WHERE kind = 'kernel'),
  copies AS (SELECT * FROM analyze_stream_ops WHERE kind = 'copy'),
  -- A kernel opens a new busy interval when it starts after every earlier kernel ended.
  ordered_kernels AS (
    SELECT pid, deviceId, start, end,
           max(end) OVER (PARTITION BY pid, deviceId ORDER BY start, end
                          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reachedEnd
    FROM kernels
  ),
  numbered_kernels AS (
    SELECT pid, deviceId, start, end,
           sum(CASE WHEN reachedEnd IS NULL OR start > reachedEnd THEN 1 ELSE 0 END)
             OVER (PARTITION BY pid, deviceId ORDER BY start, end ROWS UNBOUNDED PRECEDING)
             AS busyId
    FROM ordered_kernels
  ),
  kernel_busy AS (
    SELECT pid, deviceId, min(start) AS start, max(end) AS end
    FROM numbered_kernels GROUP BY pid, deviceId, busyId
  ),
  copy_stats AS (
    SELECT copy.pid, copy.deviceId, count(*) AS copies, sum(copy.end - copy.start) AS copyTime,
           sum(coalesce((SELECT sum(min(copy.end, busy.end) - max(copy.start, busy.start))
                         FROM kernel_busy AS busy
                         WHERE busy.pid = copy.pid AND busy.deviceId = copy.deviceId
                           AND busy.start < copy.end AND busy.end > copy.start), 0))
             AS overlapped
    FROM copies AS copy
    GROUP BY copy.pid, copy.deviceId
  ),
  kernel_stats AS (
    SELECT pid, deviceId, count(*) AS kernels, sum(end - start) AS kernelTime,
           sum(end - start < 10000) AS shortKernels,
           sum(CASE WHEN end - start < 10000 THEN end - start ELSE 0 END) AS shortTime,
           median(start - launchStart) AS launchLatency
    FROM kernels GROUP BY pid, deviceId
  ),
  devices AS (
    SELECT pid, deviceId FROM kernel_stats UNION SELECT pid, deviceId FROM copy_stats
  )
SELECT devices.pid, devices.deviceId, coalesce(k.kernels, 0) AS kernels,
       coalesce(k.kernelTime, 0) AS kernelTime, coalesce(k.shortKernels, 0) AS shortKernels,
       coalesce(k.shortTime, 0) AS shortTime, k.launchLatency, coalesce(c.copies, 0) AS copies,
       coalesce(c.copyTime, 0) AS copyTime, coalesce(c.overlapped, 0) AS overlapped
FROM devices
LEFT JOIN kernel_stats AS k ON k.pid = devices.pid AND k.deviceId = devices.deviceId
LEFT JOIN copy_stats AS c ON c.pid = devices.pid AND c.deviceId = devices.deviceId;
