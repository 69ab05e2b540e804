-- View cpu_samples: the CPU samples (COMPOSITE_EVENTS) the CPU sample reports count, after the
-- report's options: `tid=<integer>` keeps one thread's samples; `nvtx=<text>` keeps the samples
-- taken on a thread while an NVTX range of that name was open on that thread (range start <=
-- sample < range end), the name being the range's text or "<domain>:<text>" (nvtx_ranges). Reads
-- COMPOSITE_EVENTS, PROCESSES and the nvtx_ranges view (over NVTX_EVENTS, empty without it).
CREATE TEMP VIEW IF NOT EXISTS cpu_samples AS
WITH
  options AS (
    SELECT
      (SELECT CAST(value AS INTEGER) FROM report_options WHERE name = 'tid') AS tid,
      (SELECT value FROM report_options WHERE name = 'nvtx') AS nvtx
  )
SELECT
  -- the sample's id: SAMPLING_CALLCHAINS.id of its frames
  ce.id AS id,
  -- when the sample was taken (ns)
  ce.start AS start,
  -- the sampled thread, as nsys's GlobalId, and its process's (thread bits 0..23 cleared)
  ce.globalTid AS globalTid,
  ce.globalTid - (ce.globalTid & 0xFFFFFF) AS globalPid,
  -- process and thread id
  (ce.globalTid >> 24) & 0xFFFFFF AS pid,
  ce.globalTid & 0xFFFFFF AS tid
FROM COMPOSITE_EVENTS AS ce, options AS o
WHERE (o.tid IS NULL OR ce.globalTid & 0xFFFFFF = o.tid)
  AND (o.nvtx IS NULL OR EXISTS (
    SELECT 1
    FROM nvtx_ranges AS r
    WHERE r.globalTid = ce.globalTid AND r.start <= ce.start AND ce.start < r.end
      AND (r.text = o.nvtx OR r.name = o.nvtx)));
