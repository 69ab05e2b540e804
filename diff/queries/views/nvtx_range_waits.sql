-- View nvtx_range_waits: every NVTX range that ended (view nvtx_ranges) with the time its thread
-- waited inside it (TEMP table diff_waiting: in wait calls, or preempted). Only push/pop ranges
-- wait this way: a push/pop range is its thread's time, while a start/end range's thread may do
-- anything meanwhile (its waited is 0). Times in ns.
CREATE TEMP VIEW IF NOT EXISTS nvtx_range_waits AS
SELECT
  -- "<domain>:<text>", as view nvtx_ranges names it
  r.name AS name,
  -- end - start (ns)
  r.duration AS duration,
  -- the range's time waiting (ns), at most its duration: a thread waits only while it does not
  -- run, so each interval that starts inside the range is the thread's, and a preemption inside
  -- a wait call (rare: the thread blocks instead) is the only overlap
  CASE
    WHEN r.style = 'PushPop' THEN
      min(r.duration,
          coalesce((SELECT sum(min(w.end, r.end) - w.start)
                    FROM diff_waiting AS w
                    WHERE w.globalTid = r.globalTid AND w.start >= r.start AND w.start < r.end),
                   0))
    ELSE 0
  END AS waited
FROM nvtx_ranges AS r;
