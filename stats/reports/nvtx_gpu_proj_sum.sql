-- nvtx_gpu_proj_sum: NVTX GPU Projection Summary. One row per NVTX range name and style, over the
-- ranges that started GPU work (view nvtx_gpu_proj_ranges: a range's projection runs from the
-- start of the first GPU operation launched inside it on its thread to the end of the last).
-- Rows by Total Proj Time, largest first (ties by name, then style). Times in ns; averages and
-- StdDev rounded to 0.1. Reads nvtx_gpu_proj_ranges.
WITH
  summary AS (
    SELECT
      name, style,
      sum(projEnd - projStart) AS projTotal,
      sum(duration) AS rangeTotal,
      count(*) AS instances,
      avg(projEnd - projStart) AS projMean,
      median(projEnd - projStart) AS projMiddle,
      min(projEnd - projStart) AS projShortest,
      max(projEnd - projStart) AS projLongest,
      stdev(projEnd - projStart) AS projDeviation,
      sum(numOps) AS ops,
      avg(numOps) AS opsMean,
      avg(lvl) AS lvlMean,
      avg(numChild) AS childMean
    FROM nvtx_gpu_proj_ranges
    GROUP BY name, style
  )
SELECT
  -- "<domain>:<name>", ":<name>" in the default domain
  name AS "Range",
  -- PushPop or StartEnd
  style AS "Style",
  -- summed projected GPU time of the ranges (ns)
  projTotal AS "Total Proj Time (ns)",
  -- summed duration of the ranges themselves (ns)
  rangeTotal AS "Total Range Time (ns)",
  -- number of ranges with GPU operations
  instances AS "Range Instances",
  -- mean, median, shortest, longest and sample standard deviation of the projected times (ns)
  round(projMean, 1) AS "Proj Avg (ns)",
  round(projMiddle, 1) AS "Proj Med (ns)",
  projShortest AS "Proj Min (ns)",
  projLongest AS "Proj Max (ns)",
  round(projDeviation, 1) AS "Proj StdDev (ns)",
  -- GPU operations of the ranges, summed, and per range
  ops AS "Total GPU Ops",
  round(opsMean, 1) AS "Avg GPU Ops",
  -- mean nesting level (0: outermost)
  round(lvlMean, 1) AS "Avg Range Lvl",
  -- mean number of direct children with GPU operations
  round(childMean, 1) AS "Avg Num Child"
FROM summary
ORDER BY projTotal DESC, name, style;
