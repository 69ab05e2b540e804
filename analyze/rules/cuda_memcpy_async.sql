-- cuda_memcpy_async: asynchronous copies (cudaMemcpy*Async*) whose source or destination is
-- pageable host memory, so the driver copies through a staging buffer and the call blocks the
-- host like a synchronous copy. Longest first (ties by start), at most rows= rows (-1: all).
WITH
  async_calls AS (
    SELECT call.correlationId, call.globalTid, name.value AS apiName
    FROM main.CUPTI_ACTIVITY_KIND_RUNTIME AS call
    JOIN StringIds AS name ON name.id = call.nameId
    WHERE name.value LIKE 'cudaMemcpy%Async%'
  )
SELECT
  copy.end - copy.start AS "Duration (ns)",                 -- the copy's GPU time
  copy.start AS "Start (ns)",                               -- GPU start timestamp
  source_kind.label AS "Src Kind",                          -- ENUM_CUDA_MEM_KIND label
  destination_kind.label AS "Dst Kind",
  copy.bytes / 1e6 AS "Bytes (MB)",                         -- bytes copied, in MB
  (copy.globalPid >> 24) & 0xFFFFFF AS "PID",
  copy.deviceId AS "Device ID",
  copy.contextId AS "Context ID",
  NULLIF(copy.greenContextId, 0) AS "Green Context ID",     -- empty without a green context
  copy.streamId AS "Stream ID",
  async_calls.apiName AS "API Name"                         -- the launching call, as recorded
FROM CUPTI_ACTIVITY_KIND_MEMCPY AS copy
-- Correlation ids are unique per process only.
JOIN async_calls
  ON async_calls.correlationId = copy.correlationId
 AND async_calls.globalTid >> 24 = copy.globalPid >> 24
LEFT JOIN ENUM_CUDA_MEM_KIND AS source_kind ON source_kind.id = copy.srcKind
LEFT JOIN ENUM_CUDA_MEM_KIND AS destination_kind ON destination_kind.id = copy.dstKind
WHERE copy.srcKind = 0 OR copy.dstKind = 0  -- CUDA_MEMOPR_MEMORY_KIND_PAGEABLE
ORDER BY 1 DESC, 2
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
