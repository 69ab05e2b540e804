-- Every memset, in start order. Times in ns, sizes in bytes.
SELECT m.start, m.end, '[CUDA memset]', m.deviceId, (m.globalPid >> 24) & 0xFFFFFF, m.streamId,
  m.correlationId, f.flowId, m.bytes
FROM CUPTI_ACTIVITY_KIND_MEMSET AS m
LEFT JOIN export_flows AS f
  ON f.pid = (m.globalPid >> 24) & 0xFFFFFF AND f.correlationId = m.correlationId
ORDER BY m.start, m.end DESC;
