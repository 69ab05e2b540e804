-- cuda_gpu_trace: CUDA GPU Trace. One row per kernel, memcpy and memset, in start order (ties by
-- correlation id). Times in ns. Sizes and throughputs in MB (10^6 B) as text with three decimals,
-- as nsys prints them ("4.194", "0.000"); kernel columns are empty on memory rows and memory
-- columns empty on kernel rows. Kernel names follow the :base / :mangled options (view
-- cuda_kernels). Reads CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY, _MEMSET (a missing one is an empty
-- stand-in), TARGET_INFO_GPU, ENUM_CUDA_MEMCPY_OPER, ENUM_CUDA_MEM_KIND and StringIds.
WITH
  ops AS (
    SELECT
      start, end - start AS duration, correlationId, gridX, gridY, gridZ, blockX, blockY, blockZ,
      registersPerThread, staticSharedMemory AS staticMem, dynamicSharedMemory AS dynamicMem,
      NULL AS bytes,
      NULL AS srcKind, NULL AS dstKind, deviceId, contextId, greenContextId, streamId, name
    FROM cuda_kernels
    UNION ALL
    SELECT
      m.start, m.end - m.start, m.correlationId, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
      NULL, m.bytes, src.label, dst.label, m.deviceId, m.contextId, m.greenContextId, m.streamId,
      '[CUDA memcpy ' || oper.label || ']'
    FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m
    LEFT JOIN ENUM_CUDA_MEMCPY_OPER AS oper ON oper.id = m.copyKind
    LEFT JOIN ENUM_CUDA_MEM_KIND AS src ON src.id = m.srcKind
    LEFT JOIN ENUM_CUDA_MEM_KIND AS dst ON dst.id = m.dstKind
    UNION ALL
    SELECT
      s.start, s.end - s.start, s.correlationId, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
      NULL, s.bytes, kind.label, NULL, s.deviceId, s.contextId, s.greenContextId, s.streamId,
      '[CUDA memset]'
    FROM CUPTI_ACTIVITY_KIND_MEMSET AS s
    LEFT JOIN ENUM_CUDA_MEM_KIND AS kind ON kind.id = s.memKind
  )
SELECT
  -- operation start timestamp (ns)
  ops.start AS "Start (ns)",
  -- operation duration (ns)
  ops.duration AS "Duration (ns)",
  -- correlation id of the API call that started it
  ops.correlationId AS "CorrId",
  -- grid size (kernels)
  ops.gridX AS "GrdX",
  ops.gridY AS "GrdY",
  ops.gridZ AS "GrdZ",
  -- block size (kernels)
  ops.blockX AS "BlkX",
  ops.blockY AS "BlkY",
  ops.blockZ AS "BlkZ",
  -- registers per thread (kernels)
  ops.registersPerThread AS "Reg/Trd",
  -- static shared memory (kernels, MB)
  CASE WHEN ops.staticMem IS NOT NULL THEN printf('%.3f', ops.staticMem / 1e6) END
    AS "StcSMem (MB)",
  -- dynamic shared memory (kernels, MB)
  CASE WHEN ops.dynamicMem IS NOT NULL THEN printf('%.3f', ops.dynamicMem / 1e6) END
    AS "DymSMem (MB)",
  -- bytes copied or set (memory operations, MB)
  CASE WHEN ops.bytes IS NOT NULL THEN printf('%.3f', ops.bytes / 1e6) END
    AS "Bytes (MB)",
  -- bytes per second over whole ns (nsys's integer division 10^9 / duration), in MB/s; empty for
  -- a zero duration
  CASE WHEN ops.bytes IS NOT NULL AND ops.duration > 0
    THEN printf('%.3f', ops.bytes * (1000000000 / ops.duration) / 1e6) END AS "Throughput (MB/s)",
  -- memcpy source memory kind, or the memset's memory kind
  ops.srcKind AS "SrcMemKd",
  -- memcpy destination memory kind
  ops.dstKind AS "DstMemKd",
  -- "<GPU name> (<device id>)"
  printf('%s (%d)', gpu.name, ops.deviceId) AS "Device",
  -- CUDA context id
  ops.contextId AS "Ctx",
  -- green context id, empty for none (0)
  nullif(ops.greenContextId, 0) AS "GreenCtx",
  -- CUDA stream id
  ops.streamId AS "Strm",
  -- kernel name, "[CUDA memcpy <kind>]" or "[CUDA memset]"
  ops.name AS "Name"
FROM ops
LEFT JOIN TARGET_INFO_GPU AS gpu ON gpu.id = ops.deviceId
ORDER BY ops.start, ops.correlationId;
