-- analyze_span_threads: what each thread did in each span of analyze_cpu_spans. One row per span
-- and thread of the span that was sampled in it or has thread switches around it. Times in ns.
--   spanId, globalTid
--   samples: its CPU samples in the span (analyze_span_samples)
--   running, blocked, preempted: the time of the span it spent on a CPU, off it blocked, off it
--     runnable (thread_states clipped to the span); NULL when no thread switch of the
--     thread tells (no SCHED_EVENTS)
--   switches: its thread switches inside the span
--   listed: 1 when the thread belongs in a per-span listing: sampled or running in the span,
--     switched inside it, or the span's feedTid
-- A thread's states that overlap a span are its last one starting at or before the span's start
-- and those starting inside it (the states of a thread are contiguous): one index search each.
CREATE TEMP VIEW IF NOT EXISTS analyze_span_threads AS
WITH
  sampled AS (
    SELECT spanId, globalTid, count(*) AS samples FROM analyze_span_samples
    GROUP BY spanId, globalTid
  ),
  switching_threads AS (SELECT DISTINCT globalTid FROM thread_states),
  states AS (
    SELECT span.spanId, thread.globalTid, state.state,
           max(0, min(state.end, span.end) - max(state.start, span.start)) AS ns,
           state.start > span.start AS switched
    FROM analyze_cpu_spans AS span
    JOIN switching_threads AS thread
      ON (span.pid IS NULL OR (thread.globalTid >> 24) & 0xFFFFFF = span.pid)
     AND (span.onlyTid IS NULL OR thread.globalTid = span.onlyTid)
    JOIN thread_states AS state
      ON state.globalTid = thread.globalTid AND state.start < span.end
     AND state.start >= coalesce((SELECT max(before.start) FROM thread_states AS before
                                  WHERE before.globalTid = thread.globalTid
                                    AND before.start <= span.start), span.start)
  ),
  switched AS (
    SELECT spanId, globalTid,
           sum(CASE WHEN state = 'running' THEN ns ELSE 0 END) AS running,
           sum(CASE WHEN state = 'blocked' THEN ns ELSE 0 END) AS blocked,
           sum(CASE WHEN state = 'preempted' THEN ns ELSE 0 END) AS preempted,
           sum(switched) AS switches
    FROM states
    GROUP BY spanId, globalTid
  ),
  threads AS (
    SELECT spanId, globalTid FROM sampled UNION SELECT spanId, globalTid FROM switched
  )
SELECT threads.spanId, threads.globalTid, coalesce(sampled.samples, 0) AS samples,
       switched.running, switched.blocked, switched.preempted,
       coalesce(switched.switches, 0) AS switches,
       coalesce(sampled.samples, 0) > 0 OR switched.running > 0 OR switched.switches > 0
         OR threads.globalTid IS span.feedTid AS listed
FROM threads
JOIN analyze_cpu_spans AS span ON span.spanId = threads.spanId
LEFT JOIN sampled ON sampled.spanId = threads.spanId AND sampled.globalTid = threads.globalTid
LEFT JOIN switched ON switched.spanId = threads.spanId AND switched.globalTid = threads.globalTid;
