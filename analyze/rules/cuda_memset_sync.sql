-- cuda_memset_sync: sets made by synchronous set calls (cudaMemset* without Async) on pinned
-- host memory or managed memory, which block the host until the set is done. Longest first
-- (ties by start), at most rows= rows.
WITH
  sync_calls AS (
    SELECT call.correlationId, call.globalTid, name.value AS apiName
    FROM main.CUPTI_ACTIVITY_KIND_RUNTIME AS call
    JOIN StringIds AS name ON name.id = call.nameId
    WHERE name.value LIKE 'cudaMemset%' AND name.value NOT LIKE '%async%'
  )
SELECT
  memset.end - memset.start AS "Duration (ns)",             -- the set's GPU time
  memset.start AS "Start (ns)",                             -- GPU start timestamp
  memory_kind.label AS "Memory Kind",                       -- ENUM_CUDA_MEM_KIND label
  memset.bytes / 1e6 AS "Bytes (MB)",                       -- bytes set, in MB
  (memset.globalPid >> 24) & 0xFFFFFF AS "PID",
  memset.deviceId AS "Device ID",
  memset.contextId AS "Context ID",
  NULLIF(memset.greenContextId, 0) AS "Green Context ID",   -- empty without a green context
  memset.streamId AS "Stream ID",
  sync_calls.apiName AS "API Name"
FROM CUPTI_ACTIVITY_KIND_MEMSET AS memset
JOIN sync_calls
  ON sync_calls.correlationId = memset.correlationId
 AND sync_calls.globalTid >> 24 = memset.globalPid >> 24
LEFT JOIN ENUM_CUDA_MEM_KIND AS memory_kind ON memory_kind.id = memset.memKind
WHERE memset.memKind IN (1, 4)  -- CUDA_MEMOPR_MEMORY_KIND_PINNED, _MANAGED
ORDER BY 1 DESC, 2
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
