-- cuda_api_trace: CUDA API Trace. One row per CUDA runtime or driver API call
-- (CUPTI_ACTIVITY_KIND_RUNTIME), in start order (ties by correlation id). Times in ns. Reads
-- CUPTI_ACTIVITY_KIND_RUNTIME, StringIds and ThreadNames.
--
-- Names as nsys 2025.3 prints them in this report: a six-character version suffix ("_v7000") is
-- cut, a longer one ("_v12000", "_v10000") is kept, as nsys's own SQL does.
SELECT
  -- call start timestamp (ns)
  api.start AS "Start (ns)",
  -- call duration (ns)
  api.end - api.start AS "Duration (ns)",
  -- API function name
  CASE substr(names.value, -6, 2)
    WHEN '_v' THEN substr(names.value, 1, length(names.value) - 6)
    ELSE names.value
  END AS "Name",
  -- the call's return value (0: success)
  api.returnValue AS "Result",
  -- correlation id, shared with the GPU operations the call started
  api.correlationId AS "CorrID",
  -- process id of the calling thread
  (api.globalTid >> 24) & 0xFFFFFF AS "Pid",
  -- thread id of the calling thread
  api.globalTid & 0xFFFFFF AS "Tid",
  -- the calling thread's priority
  threads.priority AS "T-Pri",
  -- the calling thread's name
  threadNames.value AS "Thread Name"
FROM CUPTI_ACTIVITY_KIND_RUNTIME AS api
LEFT JOIN StringIds AS names ON names.id = api.nameId
LEFT JOIN ThreadNames AS threads ON threads.globalTid = api.globalTid
LEFT JOIN StringIds AS threadNames ON threadNames.id = threads.nameId
ORDER BY api.start, api.correlationId;
