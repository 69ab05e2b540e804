-- nvtx_gpu_proj_trace: NVTX GPU Projection Trace. One row per NVTX range that started GPU work,
-- projected onto the GPU (view nvtx_gpu_proj_ranges: from the start of the first GPU operation
-- launched inside the range on its thread to the end of the last), with its place in the
-- push/pop stack. Rows in range start order (RangeId). Times in ns. Reads nvtx_gpu_proj_ranges.
WITH RECURSIVE
  -- ":<root id>:...:<own id>", built from the roots down.
  stacks(id, rangeStack) AS (
    SELECT id, ':' || id FROM nvtx_gpu_proj_ranges WHERE parentId IS NULL
    UNION ALL
    SELECT ranges.id, stacks.rangeStack || ':' || ranges.id
    FROM nvtx_gpu_proj_ranges AS ranges JOIN stacks ON ranges.parentId = stacks.id
  )
SELECT
  -- "<domain>:<name>", ":<name>" in the default domain
  ranges.name AS "Name",
  -- start of the range's first GPU operation (ns)
  ranges.projStart AS "Projected Start (ns)",
  -- end of its last GPU operation - Projected Start (ns)
  ranges.projEnd - ranges.projStart AS "Projected Duration (ns)",
  -- the range's own start timestamp (ns)
  ranges.start AS "Orig Start (ns)",
  -- the range's own duration (ns)
  ranges.duration AS "Orig Duration (ns)",
  -- PushPop or StartEnd
  ranges.style AS "Style",
  -- process id
  (ranges.globalTid >> 24) & 0xFFFFFF AS "PID",
  -- thread id
  ranges.globalTid & 0xFFFFFF AS "TID",
  -- number of GPU operations launched inside the range, nested ranges' included
  ranges.numOps AS "NumGPUOps",
  -- push/pop stack level, 0 for an outermost range (and every start/end range)
  ranges.lvl AS "Lvl",
  -- number of direct children that started GPU work
  ranges.numChild AS "NumChild",
  -- this range's id (1-based position in start order)
  ranges.id AS "RangeId",
  -- RangeId of the enclosing range, NULL at level 0
  ranges.parentId AS "ParentId",
  -- RangeIds from the outermost range down to this one, each preceded by ':'
  stacks.rangeStack AS "RangeStack"
FROM nvtx_gpu_proj_ranges AS ranges
JOIN stacks USING (id)
ORDER BY ranges.id;
