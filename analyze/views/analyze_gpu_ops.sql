-- analyze_gpu_ops: every GPU operation (kernels, copies, sets) plus the profiler's own overhead
-- that stalled the GPU, as nsys's GPU rules count them. One row per operation:
--   start, end   GPU timestamps (ns); operations without a start (0) are left out
--   pid          process id (bits 24..47 of globalPid)
--   deviceId, contextId
-- Overhead rows (PROFILER_OVERHEAD named 'CUDA profiling ... overhead') are repeated for each
-- device of their process and kept only when they lie strictly inside the span from the device's
-- first operation start to its last operation end: the user cannot remove that idle time.
CREATE TEMP VIEW IF NOT EXISTS analyze_gpu_ops AS
WITH
  operations AS (
    SELECT start, end, (globalPid >> 24) & 0xFFFFFF AS pid, deviceId, contextId
    FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start > 0
    UNION ALL
    SELECT start, end, (globalPid >> 24) & 0xFFFFFF, deviceId, contextId
    FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE start > 0
    UNION ALL
    SELECT start, end, (globalPid >> 24) & 0xFFFFFF, deviceId, contextId
    FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE start > 0
  ),
  device_spans AS (
    SELECT pid, deviceId, min(contextId) AS contextId, min(start) AS start, max(end) AS end
    FROM operations
    GROUP BY pid, deviceId
  ),
  overheads AS (
    SELECT overhead.start, overhead.end, (overhead.globalTid >> 24) & 0xFFFFFF AS pid
    FROM PROFILER_OVERHEAD AS overhead
    JOIN StringIds AS name ON name.id = overhead.nameId
    WHERE name.value IN ('CUDA profiling data flush overhead', 'CUDA profiling stop overhead',
                         'CUDA profiling overhead')
  )
SELECT overheads.start, overheads.end, overheads.pid, span.deviceId, span.contextId
FROM overheads
JOIN device_spans AS span
  ON span.pid = overheads.pid AND overheads.start > span.start AND overheads.end < span.end
UNION ALL
SELECT start, end, pid, deviceId, contextId FROM operations;
