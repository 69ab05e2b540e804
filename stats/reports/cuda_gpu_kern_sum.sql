-- cuda_gpu_kern_sum: CUDA GPU Kernel Summary. One row per kernel name: how often the kernel ran
-- on the GPU and how long its executions took. Names are demangled, or base / mangled names with
-- those options (cuda_kernels). Rows by Total Time, largest first (ties by name). Times in ns; Avg,
-- Med and StdDev are rounded to 0.1 ns. Reads the cuda_kernels view.
WITH
  summary AS (
    -- duration statistics per name in one pass over rowid slices in parallel
    -- (stats/duration_summary.h, stats/parallel_groups.h)
    SELECT key1 AS name, total, instances, mean, middle, shortest, longest, deviation
    FROM duration_summary(duration_groups_parallel('CUPTI_ACTIVITY_KIND_KERNEL',
      'SELECT duration_groups(end - start, name) FROM cuda_kernels
       WHERE kernelRow BETWEEN ?1 AND ?2'))
  )
SELECT
  -- share of this row in the summed Total Time of all rows (%), one decimal
  round(total * 100.0 / (SELECT sum(total) FROM summary), 1) AS "Time (%)",
  -- GPU time of the kernel, summed over its executions (ns)
  total AS "Total Time (ns)",
  -- number of executions
  instances AS "Instances",
  -- mean execution time (ns)
  round(mean, 1) AS "Avg (ns)",
  -- median execution time (ns): the mean of the two middle values for an even count
  round(middle, 1) AS "Med (ns)",
  -- shortest execution (ns)
  shortest AS "Min (ns)",
  -- longest execution (ns)
  longest AS "Max (ns)",
  -- sample standard deviation of the execution times (ns), 0 for a single execution
  round(deviation, 1) AS "StdDev (ns)",
  -- kernel name
  name AS "Name"
FROM summary
ORDER BY total DESC, name;
