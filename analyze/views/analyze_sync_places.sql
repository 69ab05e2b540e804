-- analyze_sync_places: the CUDA calls of analyze_sync_calls that block the host, each with the
-- PyTorch operator and module it ran in: the innermost range of each kind of
-- analyze_pytorch_ranges on the call's thread that holds the whole call (the latest-starting one
-- with start <= call start and end >= call end). Times in ns.
--   start, end, kind (the call's syncKind), operator, module (NULL outside every such range)
-- Each lookup searches the index from the call's start back by at most the longest range of its
-- kind, which bounds it as analyze_gap_causes bounds its range lookup.
CREATE TEMP VIEW IF NOT EXISTS analyze_sync_places AS
WITH
  longest AS (
    SELECT
      (SELECT coalesce(max(end - start), 0) FROM analyze_pytorch_ranges
       WHERE kind = 'operator') AS operator,
      (SELECT coalesce(max(end - start), 0) FROM analyze_pytorch_ranges
       WHERE kind = 'module') AS module
  )
SELECT
  s.start, s.end, s.kind,
  (SELECT r.name FROM analyze_pytorch_ranges AS r
   WHERE r.globalTid = s.globalTid AND r.kind = 'operator' AND r.start <= s.start
     AND r.start >= s.start - longest.operator AND r.end >= s.end
   ORDER BY r.start DESC LIMIT 1) AS operator,
  (SELECT r.name FROM analyze_pytorch_ranges AS r
   WHERE r.globalTid = s.globalTid AND r.kind = 'module' AND r.start <= s.start
     AND r.start >= s.start - longest.module AND r.end >= s.end
   ORDER BY r.start DESC LIMIT 1) AS module
FROM analyze_sync_calls AS s, longest;
