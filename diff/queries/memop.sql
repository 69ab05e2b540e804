-- Diff items of kind memop: one row per GPU memory operation kind, named as
-- cuda_gpu_mem_time_sum names them (view cuda_gpu_mem_ops: "[CUDA memcpy Host-to-Device]",
-- "[CUDA memset]"). Durations are GPU times (end - start), ns.
SELECT
  -- the operation kind
  name,
  -- operations of that kind
  count(*) AS instances,
  -- summed and median duration (ns)
  sum(duration) AS total,
  median(duration) AS median
FROM cuda_gpu_mem_ops
GROUP BY name;
