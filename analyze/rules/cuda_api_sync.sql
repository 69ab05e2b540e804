-- cuda_api_sync: calls that block the host until the GPU work issued before them is done
-- (cudaDeviceSynchronize*, cudaStreamSynchronize*). Longest first (ties by start), rows= rows.
SELECT
  call.end - call.start AS "Duration (ns)",                 -- host time in the call
  call.start AS "Start (ns)",
  (call.globalTid >> 24) & 0xFFFFFF AS "PID",
  call.globalTid & 0xFFFFFF AS "TID",
  name.value AS "API Name"                                  -- as recorded, version suffix kept
FROM CUPTI_ACTIVITY_KIND_RUNTIME AS call
JOIN StringIds AS name ON name.id = call.nameId
WHERE name.value LIKE 'cudaDeviceSynchronize%' OR name.value LIKE 'cudaStreamSynchronize%'
ORDER BY 1 DESC, 2
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
