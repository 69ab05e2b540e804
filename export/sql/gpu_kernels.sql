-- Every kernel, in start order, named by its demangled name as nsys's timeline names it, with the
-- flow id of the API call that launched it (NULL when the report lacks that call). Times in ns.
SELECT k.start, k.end, coalesce(s.value, ''), k.deviceId, (k.globalPid >> 24) & 0xFFFFFF,
  k.streamId, k.correlationId, f.flowId,
  k.gridX || 'x' || k.gridY || 'x' || k.gridZ,
  k.blockX || 'x' || k.blockY || 'x' || k.blockZ
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
LEFT JOIN StringIds AS s ON s.id = k.demangledName
LEFT JOIN export_flows AS f
  ON f.pid = (k.globalPid >> 24) & 0xFFFFFF AND f.correlationId = k.correlationId
ORDER BY k.start, k.end DESC;
