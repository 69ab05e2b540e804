-- Diff items of kind cuda_api: one row per CUDA runtime or driver API function, named as
-- cuda_api_sum names them (view cuda_api_calls: CUPTI's "_v<NNNN>" suffix dropped). Durations are
-- the calls' CPU times (end - start), ns.
SELECT
  -- the function name
  coalesce(name, '') AS name,
  -- calls of it
  count(*) AS instances,
  -- summed and median duration (ns)
  sum(duration) AS total,
  median(duration) AS median
FROM cuda_api_calls
GROUP BY 1;
