-- thread_states: what each thread did between two of its thread switches (SCHED_EVENTS),
-- as a TEMP table indexed by thread and start. Rebuilt each time it is created, as SCHED_EVENTS
-- may be a TEMP view that changed since (analyze's window).
--   globalTid, start, end (ns: this switch and the thread's next one)
--   state: 'running' after a switch in; after a switch out 'blocked' when the thread left the CPU
--     blocked (threadState 2: sleeping, waiting for a lock, I/O or a condition), else 'preempted'
--     (runnable, waiting for a CPU)
-- The thread's time before its first switch is unknown, and so is the time after its last one
-- (it may have exited): neither has a row. The rows of a thread are contiguous.
DROP TABLE IF EXISTS temp.thread_states;
CREATE TEMP TABLE thread_states AS
SELECT globalTid, start, end, state
FROM (
  SELECT globalTid, start,
         LEAD(start) OVER (PARTITION BY globalTid ORDER BY start, isSchedIn) AS end,
         CASE WHEN isSchedIn = 1 THEN 'running' WHEN threadState = 2 THEN 'blocked'
              ELSE 'preempted' END AS state
  FROM SCHED_EVENTS
  WHERE globalTid IS NOT NULL
)
WHERE end IS NOT NULL;
CREATE INDEX temp.thread_states_by_thread ON thread_states (globalTid, start);
