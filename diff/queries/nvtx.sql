-- Diff items of kind nvtx: one row per NVTX range name as nvtx_sum names them (view
-- nvtx_ranges: "<domain>:<text>", ":<text>" in the default domain); push/pop and start/end ranges
-- of one name are one item. Durations are the ranges' (end - start), ns.
SELECT
  -- "<domain>:<text>"
  name,
  -- ranges of that name
  count(*) AS instances,
  -- summed and median duration (ns)
  sum(duration) AS total,
  median(duration) AS median,
  -- the total less the ranges' time waiting (view nvtx_range_waits)
  sum(duration - waited) AS excluding_waits
FROM nvtx_range_waits
GROUP BY name;
