-- Every copy, in start order, named as nsys's CUDA reports name them ("[CUDA memcpy
-- Host-to-Device]", the copy kind's label from ENUM_CUDA_MEMCPY_OPER). Times in ns, sizes in
-- bytes.
SELECT m.start, m.end, '[CUDA memcpy ' || coalesce(kind.label, 'Unknown') || ']', m.deviceId,
  (m.globalPid >> 24) & 0xFFFFFF, m.streamId, m.correlationId, f.flowId, m.bytes
FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m
LEFT JOIN ENUM_CUDA_MEMCPY_OPER AS kind ON kind.id = m.copyKind
LEFT JOIN export_flows AS f
  ON f.pid = (m.globalPid >> 24) & 0xFFFFFF AND f.correlationId = m.correlationId
ORDER BY m.start, m.end DESC;
