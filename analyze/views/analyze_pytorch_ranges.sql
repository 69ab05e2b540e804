-- analyze_pytorch_ranges: the PyTorch operator and module ranges of the current window (from the
-- stats view pytorch_ranges: `prof profile --pytorch` ranges only, never hand-written ones), as
-- a TEMP table indexed by thread and start, so that "the innermost operator of this thread around
-- time t" is an index lookup. Rebuilt for every rule run: each run may have another window.
--   kind ('operator' or 'module'), name (`aten::item`, `Net.fc (Linear)`), globalTid, start,
--   end (ns)
-- A backward node is also a 'module' range, named `the backward of <module>` after the module
-- whose forward made it (pytorch_ranges' backwardModuleId), so that backward's time has a module.
DROP TABLE IF EXISTS temp.analyze_pytorch_ranges;
CREATE TEMP TABLE analyze_pytorch_ranges AS
  WITH ranges AS MATERIALIZED (SELECT * FROM pytorch_ranges)
  SELECT kind, name, globalTid, start, end FROM ranges
  UNION ALL
  SELECT 'module', 'the backward of ' || m.name, b.globalTid, b.start, b.end
  FROM ranges AS b JOIN ranges AS m ON m.id = b.backwardModuleId;
CREATE INDEX temp.analyze_pytorch_ranges_by_thread
  ON analyze_pytorch_ranges (globalTid, kind, start);
