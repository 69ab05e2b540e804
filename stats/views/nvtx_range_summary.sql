-- View nvtx_range_summary: the duration statistics of every NVTX range name and style, shared by
-- nvtx_sum, nvtx_pushpop_sum and nvtx_startend_sum. Times in ns, unrounded. Reads nvtx_ranges.
CREATE TEMP VIEW IF NOT EXISTS nvtx_range_summary AS
SELECT
  -- "<domain>:<name>", ":<name>" in the default domain
  name,
  -- PushPop or StartEnd
  style,
  -- sum, count, mean, median (mean of the two middle values for an even count), extremes and
  -- sample standard deviation (0 for a single range) of the durations
  sum(duration) AS total,
  count(*) AS instances,
  avg(duration) AS mean,
  median(duration) AS middle,
  min(duration) AS shortest,
  max(duration) AS longest,
  stdev(duration) AS deviation
FROM nvtx_ranges
GROUP BY name, style;
