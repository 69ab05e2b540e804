-- Every CUDA runtime and driver API call, in start order, with the flow id of the GPU work it
-- launched (NULL when none). Times in ns.
SELECT r.start, r.end, coalesce(s.value, ''), r.globalTid, r.correlationId, r.returnValue,
  f.flowId
FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r
LEFT JOIN StringIds AS s ON s.id = r.nameId
LEFT JOIN export_flows AS f
  ON f.pid = (r.globalTid >> 24) & 0xFFFFFF AND f.correlationId = r.correlationId
WHERE r.globalTid IS NOT NULL
ORDER BY r.start, r.end DESC;
