-- cuda_gpu_mem_time_sum: CUDA GPU MemOps Summary (by Time). One row per kind of GPU memory
-- operation ("[CUDA memcpy Host-to-Device]", "[CUDA memset]", ...): how often it ran and how long
-- it took on the GPU. Rows by Total Time, largest first (ties by operation). Times in ns; Avg, Med
-- and StdDev are rounded to 0.1 ns. Reads the cuda_gpu_mem_ops view.
WITH
  summary AS (
    -- duration statistics per name in one pass (stats/duration_summary.h)
    SELECT key1 AS name, total, instances AS operations, mean, middle, shortest, longest, deviation
    FROM duration_summary((SELECT duration_groups(duration, name) FROM cuda_gpu_mem_ops))
  )
SELECT
  -- share of this row in the summed Total Time of all rows (%), one decimal
  round(total * 100.0 / (SELECT sum(total) FROM summary), 1) AS "Time (%)",
  -- GPU time of the operations, summed (ns)
  total AS "Total Time (ns)",
  -- number of operations
  operations AS "Count",
  -- mean duration (ns)
  round(mean, 1) AS "Avg (ns)",
  -- median duration (ns): the mean of the two middle values for an even count
  round(middle, 1) AS "Med (ns)",
  -- shortest operation (ns)
  shortest AS "Min (ns)",
  -- longest operation (ns)
  longest AS "Max (ns)",
  -- sample standard deviation of the durations (ns), 0 for a single operation
  round(deviation, 1) AS "StdDev (ns)",
  -- "[CUDA memcpy <copy kind>]" or "[CUDA memset]"
  name AS "Operation"
FROM summary
ORDER BY total DESC, name;
