-- analyze_pytorch_places: where the host was, in PyTorch terms, during the events summary's
-- findings are made of: each blocking CUDA call (analyze_sync_calls) and each GPU gap's launching
-- thread at the gap's middle (analyze_gap_causes), with the innermost operator range and the
-- innermost module range of analyze_pytorch_ranges on that thread that hold the event (the
-- latest-starting range with start <= event start and end >= event end). Times in ns.
--   source: 'call' or 'gap'; label: the call's syncKind, or the gapId
--   weight: the call's duration, or the gap's; operator, module: names, NULL outside every range
-- Each lookup searches the index from the event back by at most the longest range of its kind,
-- which bounds it as analyze_gap_causes bounds its range lookup.
CREATE TEMP VIEW IF NOT EXISTS analyze_pytorch_places AS
WITH
  events AS (
    SELECT 'call' AS source, kind AS label, globalTid, start, end, end - start AS weight
    FROM analyze_sync_calls
    UNION ALL
    SELECT 'gap', gapId, tid, (gapStart + gapEnd) / 2, (gapStart + gapEnd) / 2, duration
    FROM analyze_gap_causes WHERE tid IS NOT NULL
  ),
  longest AS (
    SELECT
      (SELECT coalesce(max(end - start), 0) FROM analyze_pytorch_ranges
       WHERE kind = 'operator') AS operator,
      (SELECT coalesce(max(end - start), 0) FROM analyze_pytorch_ranges
       WHERE kind = 'module') AS module
  )
SELECT
  e.source, e.label, e.weight,
  (SELECT r.name FROM analyze_pytorch_ranges AS r
   WHERE r.globalTid = e.globalTid AND r.kind = 'operator' AND r.start <= e.start
     AND r.start >= e.start - longest.operator AND r.end >= e.end
   ORDER BY r.start DESC LIMIT 1) AS operator,
  (SELECT r.name FROM analyze_pytorch_ranges AS r
   WHERE r.globalTid = e.globalTid AND r.kind = 'module' AND r.start <= e.start
     AND r.start >= e.start - longest.module AND r.end >= e.end
   ORDER BY r.start DESC LIMIT 1) AS module
FROM events AS e, longest;
