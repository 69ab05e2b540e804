-- TEMP table diff_waiting: the intervals in which a thread waited, indexed by thread and start.
--   globalTid, start, end (ns)
-- A thread waits in two ways: in a wait call (an OS runtime call of a function named in the TEMP
-- table diff_wait_functions, filled from diff/waits.cpp: a sleep, a lock, a condition, a poll),
-- and for a CPU, runnable but preempted (view thread_states, from SCHED_EVENTS). Both measure
-- other work or the machine's load, not the work of the call or range they happen in
-- (docs/diff.md, "Why runs of one build pass").
-- Reads OSRT_API, StringIds and SCHED_EVENTS; an empty stand-in stands for one a report lacks.
CREATE TEMP TABLE IF NOT EXISTS diff_waiting AS
SELECT o.globalTid AS globalTid, o.start AS start, o.end AS end
FROM OSRT_API AS o
JOIN StringIds AS ids ON ids.id = o.nameId
WHERE ids.value IN (SELECT name FROM diff_wait_functions)
UNION ALL
SELECT globalTid, start, end
FROM thread_states
WHERE state = 'preempted';

CREATE INDEX IF NOT EXISTS temp.diff_waiting_by_thread ON diff_waiting (globalTid, start);
