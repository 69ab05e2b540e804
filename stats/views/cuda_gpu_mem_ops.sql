-- View cuda_gpu_mem_ops: every memory operation that ran on a GPU (copies and sets), named as
-- nsys's CUDA reports name them: "[CUDA memcpy <label>]" with the copy kind's label from
-- ENUM_CUDA_MEMCPY_OPER ("[CUDA memcpy Host-to-Device]", "[CUDA memcpy Peer-to-Peer]"), and
-- "[CUDA memset]". Shared by cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum and cuda_gpu_ops. Times
-- in ns, sizes in bytes. Reads CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET and
-- ENUM_CUDA_MEMCPY_OPER.
CREATE TEMP VIEW IF NOT EXISTS cuda_gpu_mem_ops AS
SELECT
  -- start and end timestamps (ns), end - start (ns)
  mc.start AS start,
  mc.end AS end,
  mc.end - mc.start AS duration,
  -- the operation's name
  '[CUDA memcpy ' || coalesce(kind.label, 'Unknown') || ']' AS name,
  -- bytes copied or set
  mc.bytes AS bytes,
  -- where it ran and which API call issued it
  mc.deviceId AS deviceId,
  mc.contextId AS contextId,
  mc.streamId AS streamId,
  mc.correlationId AS correlationId,
  mc.globalPid AS globalPid
FROM CUPTI_ACTIVITY_KIND_MEMCPY AS mc
LEFT JOIN ENUM_CUDA_MEMCPY_OPER AS kind ON kind.id = mc.copyKind
UNION ALL
SELECT
  start, end, end - start, '[CUDA memset]', bytes,
  deviceId, contextId, streamId, correlationId, globalPid
FROM CUPTI_ACTIVITY_KIND_MEMSET;
