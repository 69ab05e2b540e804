-- osrt_sum: OS Runtime Summary. One row per traced libc/pthread function (OSRT_API rows of
-- eventClass 27, TRACE_PROCESS_EVENT_OS_RUNTIME; the zero-length process start/finish markers of
-- classes 31 and 32 are not calls). Rows by Total Time, largest first (ties by name). Times in ns;
-- Avg, Med and StdDev are rounded to 0.1 ns. Reads OSRT_API and StringIds.
WITH
  summary AS (
    -- duration statistics per nameId in one pass over rowid slices in parallel
    -- (stats/duration_summary.h, stats/parallel_groups.h)
    SELECT key1 AS nameId, total, instances AS calls, mean, middle, shortest, longest, deviation
    FROM duration_summary(duration_groups_parallel('OSRT_API',
      'SELECT duration_groups(end - start, nameId) FROM OSRT_API
       WHERE rowid BETWEEN ?1 AND ?2 AND eventClass = 27'))
  ),
  totals AS (
    SELECT sum(total) AS total FROM summary
  )
SELECT
  -- share of this row in the summed Total Time of all rows (%), one decimal
  round(summary.total * 100.0 / (SELECT total FROM totals), 1) AS "Time (%)",
  -- time spent in the function, summed over its calls (ns)
  summary.total AS "Total Time (ns)",
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
  -- function name
  ids.value AS "Name"
FROM summary
LEFT JOIN StringIds AS ids ON ids.id = summary.nameId
ORDER BY summary.total DESC, ids.value;
