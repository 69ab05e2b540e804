-- View pytorch_ranges: every PyTorch operator range and module range of `prof profile --pytorch`
-- (docs/pytorch.md) with its enclosing range of the same kind and its self time; read by the
-- pytorch_range_sums view (pytorch_op_sum, pytorch_module_sum) and by prof analyze's summary,
-- which names the operator and module a finding happened in. Times in ns. Reads nvtx_ranges.
--
-- Which ranges count, so that hand-written NVTX ranges never do:
--   operator: a push/pop range of the default domain (0) whose text has ", op_id = <digit>", as
--     every range of torch's emit_nvtx and of libprof_torch.so has (`aten::addmm, seq = 4, op_id =
--     57`, `Optimizer.step#SGD.step, op_id = 147`); its name is the text before ", seq = " or
--     ", op_id = ", its shapes the list after ", sizes = " (autograd-shapes-nvtx only).
--   module: a push/pop range of the domain `PyTorch` whose text is "<path> (<class>)" with one
--     space (`Net.conv (Conv2d)`); the other ranges of that domain (`autograd.backward`,
--     `SGD.step`, `DataLoader.__next__`) have no " (".
-- Self time is the duration less the summed durations of the direct children of the same kind on
-- the same thread (push/pop nesting, as nvtx_pushpop_trace's DurNonChild), as PyTorch Profiler's
-- self CPU time subtracts child operators only.
--
-- Cost: one sort and two window passes over the selected ranges (nesting), each time the view is
-- read: readers materialize it once per query (prof analyze per rule run: each may have another
-- window).
CREATE TEMP VIEW IF NOT EXISTS pytorch_ranges AS
WITH
  picked AS (
    SELECT eventRow, globalTid, start, end, duration, 'operator' AS kind,
           substr(text, 1, min(CASE WHEN instr(text, ', seq = ') > 0
                                    THEN instr(text, ', seq = ') ELSE length(text) + 1 END,
                               instr(text, ', op_id = ')) - 1) AS name,
           CASE WHEN instr(text, ', sizes = ') > 0 THEN
             substr(text, instr(text, ', sizes = ') + 10,
                    CASE WHEN instr(text, ', input_op_ids = ') > 0
                         THEN instr(text, ', input_op_ids = ') - instr(text, ', sizes = ') - 10
                         ELSE length(text) END)
           END AS shapes,
           -- the number's prefix of "<seq>, op_id = ..." (CAST reads the leading integer)
           CASE WHEN instr(text, ', seq = ') > 0 THEN
             CAST(substr(text, instr(text, ', seq = ') + 8) AS INTEGER)
           END AS seq
    FROM nvtx_ranges
    WHERE style = 'PushPop' AND domainId = 0 AND text GLOB '*, op_id = [0-9]*'
    UNION ALL
    SELECT eventRow, globalTid, start, end, duration, 'module', text, NULL, NULL
    FROM nvtx_ranges
    WHERE style = 'PushPop' AND domainName = 'PyTorch' AND text GLOB '?* (?*)'
      AND length(text) - length(replace(text, ' ', '')) = 1
  ),
  ranges AS (
    SELECT row_number() OVER (ORDER BY start, end DESC, globalTid, eventRow) AS id,
           (globalTid >> 24) & 0xFFFFFF AS pid, picked.*
    FROM picked
  ),
  -- Operators and modules nest apart: the kind stands in for the NVTX domain of the nesting.
  events AS (
    SELECT globalTid, kind AS domainId, start AS ts, 1 AS phase, id, 1 AS delta FROM ranges
    UNION ALL
    SELECT globalTid, kind, end, CASE WHEN end > start THEN 0 ELSE 1 END, id, -1 FROM ranges
  ),
  -- include: parts/nvtx_nesting.sql
  nested AS (SELECT ranges.*, parents.parentId FROM ranges JOIN parents USING (id)),
  children AS (
    SELECT parentId AS id, sum(duration) AS childTime FROM nested WHERE parentId IS NOT NULL
    GROUP BY parentId
  ),
  -- A backward node (`AddmmBackward0, seq = 4`) carries the sequence number of the forward
  -- operator that made it: the last operator of its process with that number (the counter moves
  -- on once a node is made). The node belongs to the innermost module range around that operator
  -- on its thread.
  makers AS (
    SELECT id, end, pid, seq, lastModule FROM (
      SELECT id, end, kind, name, seq, pid,
             max(CASE WHEN kind = 'module' THEN id END) OVER (
               PARTITION BY globalTid ORDER BY id ROWS UNBOUNDED PRECEDING) AS lastModule,
             row_number() OVER (
               PARTITION BY pid, kind, seq, name GLOB '*Backward*' ORDER BY id DESC) AS latest
      FROM nested)
    WHERE kind = 'operator' AND seq IS NOT NULL AND name NOT GLOB '*Backward*' AND latest = 1
  ),
  -- the last module opened before the maker on its thread, else that module's enclosing ones:
  -- modules nest, so one of them encloses the maker, or none does
  maker_candidates(id, moduleId) AS (
    SELECT id, lastModule FROM makers WHERE lastModule IS NOT NULL
    UNION ALL
    SELECT c.id, m.parentId
    FROM maker_candidates AS c JOIN makers AS o ON o.id = c.id JOIN nested AS m ON m.id = c.moduleId
    WHERE m.end < o.end AND m.parentId IS NOT NULL
  ),
  maker_modules AS (
    SELECT o.pid, o.seq, c.moduleId
    FROM maker_candidates AS c JOIN makers AS o ON o.id = c.id JOIN nested AS m ON m.id = c.moduleId
    WHERE m.end >= o.end
  )
SELECT
  -- 'operator' or 'module'
  nested.kind,
  -- operator name (`aten::conv2d`) or module path and class (`Net.conv (Conv2d)`)
  nested.name,
  -- the operator's input sizes (`[[8, 1, 8, 8], [4, 1, 3, 3], [4], ...]`); NULL without them
  nested.shapes,
  -- the operator's autograd sequence number (`seq = N`): a backward node carries its forward
  -- operator's; NULL for modules and for operators without one
  nested.seq,
  -- the range: thread, start, end, duration (ns), NVTX_EVENTS rowid
  nested.globalTid, nested.start, nested.end, nested.duration, nested.eventRow,
  -- this range's id and its direct parent's (the innermost enclosing range of the same kind on
  -- the thread; NULL for an outermost one)
  nested.id, nested.parentId,
  -- duration less the direct children's durations (ns)
  nested.duration - coalesce(children.childTime, 0) AS selfTime,
  -- a backward node's module: the id of the module range whose forward made it; else NULL
  maker_modules.moduleId AS backwardModuleId
FROM nested
  LEFT JOIN children USING (id)
  LEFT JOIN maker_modules
    ON nested.kind = 'operator' AND nested.name GLOB '*Backward*'
      AND maker_modules.pid = nested.pid AND maker_modules.seq = nested.seq;
