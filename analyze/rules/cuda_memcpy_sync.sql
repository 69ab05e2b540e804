-- cuda_memcpy_sync: copies made by synchronous copy calls (cudaMemcpy* without Async), which
-- block the host until the copy is done. Host-to-device copies of 64 KiB or less are left out:
-- CUDA returns from those once the data is staged. Longest first (ties by start), rows= rows.
WITH
  sync_calls AS (
    SELECT call.correlationId, call.globalTid, name.value AS apiName
    FROM main.CUPTI_ACTIVITY_KIND_RUNTIME AS call
    JOIN StringIds AS name ON name.id = call.nameId
    WHERE name.value LIKE 'cudaMemcpy%' AND name.value NOT LIKE '%async%'
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
  sync_calls.apiName AS "API Name"
FROM CUPTI_ACTIVITY_KIND_MEMCPY AS copy
JOIN sync_calls
  ON sync_calls.correlationId = copy.correlationId
 AND sync_calls.globalTid >> 24 = copy.globalPid >> 24
LEFT JOIN ENUM_CUDA_MEM_KIND AS source_kind ON source_kind.id = copy.srcKind
LEFT JOIN ENUM_CUDA_MEM_KIND AS destination_kind ON destination_kind.id = copy.dstKind
WHERE NOT (copy.copyKind = 1 AND copy.bytes <= 65536)  -- 1: CUDA_MEMCPY_KIND_HTOD
ORDER BY 1 DESC, 2
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
