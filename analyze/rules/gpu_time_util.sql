-- gpu_time_util: regions where a device of a process is busy less than threshold= % of the time
-- (default 50). Each device's span (first operation start to last operation end, from
-- analyze_gpu_ops) is cut into chunks= equal chunks (default 30; the chunk length is rounded up
-- to whole ns, so the last chunk may be shorter and some chunks may fall past the end). A chunk's
-- in-use share is the summed overlap of the operations with it over its length (concurrent
-- operations add up, so it can pass 100). Consecutive chunks under the threshold merge into one
-- region whose share is the length-weighted mean, rounded to 0.1. Lowest share first (ties by
-- duration), at most rows= rows.
WITH RECURSIVE
  chunk_ids(id) AS (
    SELECT 0
    UNION ALL
    SELECT id + 1 FROM chunk_ids
    WHERE id + 1 < (SELECT value FROM rule_options WHERE name = 'chunks')
  ),
  device_spans AS (
    SELECT pid, deviceId, min(contextId) AS contextId, min(start) AS start, max(end) AS end,
           (max(end) - min(start) + (SELECT value FROM rule_options WHERE name = 'chunks') - 1)
             / (SELECT value FROM rule_options WHERE name = 'chunks') AS chunkSize
    FROM analyze_gpu_ops
    GROUP BY pid, deviceId
  ),
  chunks AS (
    SELECT chunk_ids.id, span.start + chunk_ids.id * span.chunkSize AS chunkStart,
           min(span.start + (chunk_ids.id + 1) * span.chunkSize, span.end) AS chunkEnd,
           span.pid, span.deviceId, span.contextId
    FROM chunk_ids
    CROSS JOIN device_spans AS span
    WHERE span.start + chunk_ids.id * span.chunkSize < span.end
  ),
  low_chunks AS (
    SELECT chunks.id, chunks.chunkStart, chunks.chunkEnd,
           chunks.chunkEnd - chunks.chunkStart AS size,
           sum(CAST(coalesce(min(op.end, chunks.chunkEnd) - max(op.start, chunks.chunkStart), 0)
                    AS REAL)) / (chunks.chunkEnd - chunks.chunkStart) * 100 AS inUse,
           chunks.pid, chunks.deviceId, chunks.contextId
    FROM chunks
    LEFT JOIN analyze_gpu_ops AS op
      ON op.pid = chunks.pid AND op.deviceId = chunks.deviceId
     AND op.start < chunks.chunkEnd AND op.end > chunks.chunkStart
    GROUP BY chunks.pid, chunks.deviceId, chunks.id
    HAVING inUse < (SELECT value FROM rule_options WHERE name = 'threshold')
  ),
  -- Consecutive chunk ids share id - (their rank among the low chunks of the device).
  numbered AS (
    SELECT *, id - ROW_NUMBER() OVER (PARTITION BY pid, deviceId ORDER BY id) AS run
    FROM low_chunks
  ),
  regions AS (
    SELECT min(chunkStart) AS start, max(chunkEnd) - min(chunkStart) AS duration,
           round(sum(size * inUse) / sum(size), 1) AS inUse, pid, deviceId, contextId
    FROM numbered
    GROUP BY pid, deviceId, run
  )
SELECT
  ROW_NUMBER() OVER (ORDER BY inUse, duration, start) AS "Row#",
  inUse AS "In-Use (%)",             -- weighted busy share of the region
  duration AS "Duration (ns)",       -- region length
  start AS "Start (ns)",             -- region start
  pid AS "PID",
  deviceId AS "Device ID",
  contextId AS "Context ID"
FROM regions
ORDER BY 1
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
