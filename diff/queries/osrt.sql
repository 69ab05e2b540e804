-- Diff items of kind osrt: one row per OS runtime function (OSRT_API's nameId in StringIds:
-- "read", "pthread_mutex_lock", ...). Durations are the calls' (end - start), ns.
SELECT
  -- the function name
  coalesce(ids.value, '') AS name,
  -- calls of it
  count(*) AS instances,
  -- summed and median duration (ns)
  sum(o.end - o.start) AS total,
  median(o.end - o.start) AS median
FROM OSRT_API AS o
LEFT JOIN StringIds AS ids ON ids.id = o.nameId
GROUP BY 1;
