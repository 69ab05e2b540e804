-- nvtx_startend_sum: NVTX Start/End Range Summary. One row per name of start/end (nvtxRangeStart/nvtxRangeEnd) ranges.
-- Rows by Total Time, largest first (ties by range name). Times in ns; Avg, Med and StdDev are
-- rounded to 0.1 ns. Reads the nvtx_range_summary view.
WITH
  summary AS (SELECT * FROM nvtx_range_summary WHERE style = 'StartEnd')
SELECT
  -- share of this row in the summed Total Time of all rows (%), one decimal
  round(total * 100.0 / (SELECT sum(total) FROM summary), 1) AS "Time (%)",
  -- sum of the range durations (ns)
  total AS "Total Time (ns)",
  -- number of ranges
  instances AS "Instances",
  -- mean duration (ns)
  round(mean, 1) AS "Avg (ns)",
  -- median duration (ns)
  round(middle, 1) AS "Med (ns)",
  -- shortest duration (ns)
  shortest AS "Min (ns)",
  -- longest duration (ns)
  longest AS "Max (ns)",
  -- sample standard deviation of the durations (ns)
  round(deviation, 1) AS "StdDev (ns)",
  -- "<domain>:<name>", ":<name>" in the default domain
  name AS "Range"
FROM summary
ORDER BY total DESC, name;
