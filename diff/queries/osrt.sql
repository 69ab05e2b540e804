-- Diff items of kind osrt: one row per OS runtime function (OSRT_API's nameId in StringIds:
-- "read", "pthread_mutex_lock", ...). Durations are the calls' (end - start), ns.
WITH
  calls AS (
    SELECT
      coalesce(ids.value, '') AS name,
      o.end - o.start AS duration,
      -- the call's time waiting (TEMP table diff_waiting), at most its duration: preempted, or
      -- the call itself when it is a wait call
      min(o.end - o.start,
          coalesce((SELECT sum(min(w.end, o.end) - w.start)
                    FROM diff_waiting AS w
                    WHERE w.globalTid = o.globalTid AND w.start >= o.start AND w.start < o.end),
                   0)) AS waited
    FROM OSRT_API AS o
    LEFT JOIN StringIds AS ids ON ids.id = o.nameId
  )
SELECT
  -- the function name
  name,
  -- calls of it
  count(*) AS instances,
  -- summed and median duration (ns)
  sum(duration) AS total,
  median(duration) AS median,
  -- the total less the calls' time waiting
  sum(duration - waited) AS excluding_waits
FROM calls
GROUP BY name;
