-- cuda_api_gpu_sum: CUDA Summary (API/Kernels/MemOps). One row per CUDA API function, kernel name
-- and kind of GPU memory operation: cuda_api_sum and cuda_gpu_sum in one table, told apart by
-- Category, with Time (%) a share of all of them (CPU time of the calls and GPU time of the work
-- added together). Rows by Total Time, largest first (ties by category, then operation). Times in
-- ns; Avg, Med and StdDev are rounded to 0.1 ns. Reads the cuda_api_calls and cuda_gpu_ops views.
WITH
  operations AS (
    SELECT 'CUDA_API' AS category, name, duration FROM cuda_api_calls
    UNION ALL
    SELECT category, name, duration FROM cuda_gpu_ops
  ),
  summary AS (
    -- duration statistics per category and name in one pass (stats/duration_summary.h)
    SELECT key1 AS category, key2 AS name, total, instances, mean, middle, shortest, longest,
      deviation
    FROM duration_summary((SELECT duration_groups(duration, category, name) FROM operations))
  )
SELECT
  -- share of this row in the summed Total Time of all rows (%), one decimal
  round(total * 100.0 / (SELECT sum(total) FROM summary), 1) AS "Time (%)",
  -- time summed over the calls or executions (ns)
  total AS "Total Time (ns)",
  -- number of calls or executions
  instances AS "Instances",
  -- mean duration (ns)
  round(mean, 1) AS "Avg (ns)",
  -- median duration (ns): the mean of the two middle values for an even count
  round(middle, 1) AS "Med (ns)",
  -- shortest (ns)
  shortest AS "Min (ns)",
  -- longest (ns)
  longest AS "Max (ns)",
  -- sample standard deviation of the durations (ns), 0 for a single one
  round(deviation, 1) AS "StdDev (ns)",
  -- CUDA_API, CUDA_KERNEL or MEMORY_OPER
  category AS "Category",
  -- API function (version suffix dropped), kernel name, "[CUDA memcpy <copy kind>]" or
  -- "[CUDA memset]"
  name AS "Operation"
FROM summary
ORDER BY total DESC, category, name;
