-- cuda_api_sum: CUDA API Summary. One row per CUDA runtime or driver API function: how often the
-- program called it and how long the calls took on the CPU. Names without CUPTI's four-digit
-- version suffix (cuda_api_calls). Rows by Total Time, largest first (ties by name). Times in ns;
-- Avg, Med and StdDev are rounded to 0.1 ns. Reads the cuda_api_calls view.
WITH
  summary AS (
    -- duration statistics per nameId in one pass over rowid slices in parallel
    -- (stats/duration_summary.h, stats/parallel_groups.h)
    SELECT key2 AS name, total, instances AS calls, mean, middle, shortest, longest, deviation
    FROM duration_summary(duration_groups_parallel('CUPTI_ACTIVITY_KIND_RUNTIME',
      'SELECT duration_groups(duration, nameId, name) FROM cuda_api_calls
       WHERE apiRow BETWEEN ?1 AND ?2'))
  )
SELECT
  -- share of this row in the summed Total Time of all rows (%), one decimal
  round(total * 100.0 / (SELECT sum(total) FROM summary), 1) AS "Time (%)",
  -- time spent in the function, summed over its calls (ns)
  total AS "Total Time (ns)",
  -- number of calls
  calls AS "Num Calls",
  -- mean call duration (ns)
  round(mean, 1) AS "Avg (ns)",
  -- median call duration (ns): the mean of the two middle values for an even count
  round(middle, 1) AS "Med (ns)",
  -- shortest call (ns)
  shortest AS "Min (ns)",
  -- longest call (ns)
  longest AS "Max (ns)",
  -- sample standard deviation of the call durations (ns), 0 for a single call
  round(deviation, 1) AS "StdDev (ns)",
  -- function name, version suffix dropped
  name AS "Name"
FROM summary
ORDER BY total DESC, name;
