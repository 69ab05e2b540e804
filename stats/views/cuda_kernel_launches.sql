-- View cuda_kernel_launches: every kernel (view cuda_kernels, named as the report's options
-- select) with the CUDA API call that launched it (view cuda_api_calls: the same correlationId in
-- the same process), split into nsys's phases: API time (the call on the CPU), queue time (end of
-- the call to start of the kernel) and kernel time. Kernels without a launching call are left out.
-- Shared by cuda_kern_exec_sum and cuda_kern_exec_trace. Times in ns. Reads the cuda_kernels and
-- cuda_api_calls views.
CREATE TEMP VIEW IF NOT EXISTS cuda_kernel_launches AS
SELECT
  -- launching thread (nsys GlobalId), its process and thread ids
  api.globalTid AS globalTid,
  (api.globalTid >> 24) & 0xFFFFFF AS pid,
  api.globalTid & 0xFFFFFF AS tid,
  -- CUDA device that ran the kernel
  k.deviceId AS deviceId,
  -- the call's start, end and duration (ns) and name (version suffix dropped)
  api.start AS apiStart,
  api.end AS apiEnd,
  api.duration AS apiDuration,
  api.name AS apiName,
  -- queue start (the call's end) and duration (ns); NULL when the kernel started before the call
  -- returned
  CASE WHEN k.start >= api.end THEN api.end END AS queueStart,
  CASE WHEN k.start >= api.end THEN k.start - api.end END AS queueDuration,
  -- the kernel's start and duration (ns)
  k.start AS kernelStart,
  k.end - k.start AS kernelDuration,
  -- from the call's start to the call's or the kernel's end, whichever is later (ns)
  max(api.end, k.end) - api.start AS totalDuration,
  -- grid and block dimensions
  k.gridX AS gridX, k.gridY AS gridY, k.gridZ AS gridZ,
  k.blockX AS blockX, k.blockY AS blockY, k.blockZ AS blockZ,
  -- kernel name (base / mangled with those options)
  k.name AS kernelName
FROM cuda_kernels AS k
JOIN cuda_api_calls AS api
  ON api.correlationId = k.correlationId
  AND (api.globalTid & 0xFFFFFFFFFF000000) = k.globalPid;
