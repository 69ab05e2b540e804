-- View nvtx_range_summary: the duration statistics of every NVTX range name and style, shared by
-- nvtx_sum, nvtx_pushpop_sum and nvtx_startend_sum. Times in ns, unrounded. Reads nvtx_ranges.
-- Ranges are grouped by the name's parts (domain name, text): joining the name for each of millions
-- of rows costs more than the statistics. The two groupings differ only when two pairs join to the
-- same name (domain "a:b" with text "c", domain "a" with text "b:c"); that name gets two rows.
CREATE TEMP VIEW IF NOT EXISTS nvtx_range_summary AS
SELECT
  -- "<domain>:<name>", ":<name>" in the default domain
  coalesce(key1, '') || ':' || key2 AS name,
  -- PushPop or StartEnd
  key3 AS style,
  -- sum, count, mean, median (mean of the two middle values for an even count), extremes and
  -- sample standard deviation (0 for a single range) of the durations, in one pass
  -- (stats/duration_summary.h)
  total,
  instances,
  mean,
  middle,
  shortest,
  longest,
  deviation
FROM duration_summary((SELECT duration_groups(duration, domainName, text, style) FROM nvtx_ranges));
