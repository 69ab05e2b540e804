-- View cuda_gpu_ops: every operation that ran on a GPU, kernels (category CUDA_KERNEL, named as
-- the cuda_kernels view selects: demangled, base or mangled) and memory operations (MEMORY_OPER,
-- cuda_gpu_mem_ops), shared by cuda_gpu_sum and cuda_api_gpu_sum. Times in ns, sizes in bytes.
-- Reads the cuda_kernels and cuda_gpu_mem_ops views.
CREATE TEMP VIEW IF NOT EXISTS cuda_gpu_ops AS
SELECT
  -- start and end timestamps (ns), end - start (ns)
  start, end, end - start AS duration,
  -- CUDA_KERNEL or MEMORY_OPER
  'CUDA_KERNEL' AS category,
  -- kernel or memory operation name
  name,
  -- bytes copied or set; NULL for kernels
  NULL AS bytes,
  -- where it ran and which API call launched it
  deviceId, contextId, streamId, correlationId, globalPid
FROM cuda_kernels
UNION ALL
SELECT
  start, end, duration, 'MEMORY_OPER', name, bytes,
  deviceId, contextId, streamId, correlationId, globalPid
FROM cuda_gpu_mem_ops;
