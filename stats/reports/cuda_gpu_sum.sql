-- cuda_gpu_sum: CUDA GPU Summary (Kernels/MemOps). One row per kernel name and per kind of GPU
-- memory operation: cuda_gpu_kern_sum and cuda_gpu_mem_time_sum in one table, told apart by
-- Category, with Time (%) a share of all of them. Rows by Total Time, largest first (ties by
-- category, then operation). Times in ns; Avg, Med and StdDev are rounded to 0.1 ns. Reads the
-- cuda_gpu_ops view.
WITH
  summary AS (
    -- duration statistics per category and name in one pass (stats/duration_summary.h)
    SELECT key1 AS category, key2 AS name, total, instances, mean, middle, shortest, longest,
      deviation
    FROM duration_summary((SELECT duration_groups(duration, category, name) FROM cuda_gpu_ops))
  )
SELECT
  -- share of this row in the summed Total Time of all rows (%), one decimal
  round(total * 100.0 / (SELECT sum(total) FROM summary), 1) AS "Time (%)",
  -- GPU time, summed over the executions (ns)
  total AS "Total Time (ns)",
  -- number of executions
  instances AS "Instances",
  -- mean duration (ns)
  round(mean, 1) AS "Avg (ns)",
  -- median duration (ns): the mean of the two middle values for an even count
  round(middle, 1) AS "Med (ns)",
  -- shortest execution (ns)
  shortest AS "Min (ns)",
  -- longest execution (ns)
  longest AS "Max (ns)",
  -- sample standard deviation of the durations (ns), 0 for a single execution
  round(deviation, 1) AS "StdDev (ns)",
  -- CUDA_KERNEL or MEMORY_OPER
  category AS "Category",
  -- kernel name, "[CUDA memcpy <copy kind>]" or "[CUDA memset]"
  name AS "Operation"
FROM summary
ORDER BY total DESC, category, name;
