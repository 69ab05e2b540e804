-- Diff item of kind range: the instances of the NVTX range named by the diff option `range`
-- (--range), compared on their median duration. The option matches a range's full name
-- ("<domain>:<text>", view nvtx_ranges) or, without a domain, a range of the default domain
-- (`train_step` matches ":train_step"). No row when no range matches or no option is set.
-- Durations are the ranges' (end - start), ns.
WITH
  wanted AS (SELECT value FROM diff_options WHERE name = 'range')
SELECT
  -- the option as given
  wanted.value AS name,
  -- matching ranges
  count(*) AS instances,
  -- summed and median duration (ns)
  sum(r.duration) AS total,
  median(r.duration) AS median,
  -- the median instance's duration less its time waiting (view nvtx_range_waits)
  median(r.duration - r.waited) AS excluding_waits
FROM nvtx_range_waits AS r
JOIN wanted ON r.name = wanted.value OR r.name = ':' || wanted.value
GROUP BY wanted.value;
