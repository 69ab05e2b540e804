-- analyze_thread_ranges: the push/pop NVTX ranges of the current window (from nvtx_ranges), as a
-- TEMP table indexed by thread and start, so that "the innermost range of this thread around
-- time t" is an index lookup. Rebuilt for every rule run: each run may have another window.
--   start, end (ns), name ("<domain>:<text>"), globalTid, eventRow (the NVTX_EVENTS row)
-- The innermost range around [a, b] on thread g is the latest-starting range of g with
-- start <= a and end >= b.
DROP TABLE IF EXISTS temp.analyze_thread_ranges;
CREATE TEMP TABLE analyze_thread_ranges AS
  SELECT start, end, name, globalTid, eventRow FROM nvtx_ranges WHERE style = 'PushPop';
CREATE INDEX temp.analyze_thread_ranges_by_thread ON analyze_thread_ranges (globalTid, start);
