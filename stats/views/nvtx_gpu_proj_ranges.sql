-- View nvtx_gpu_proj_ranges: every NVTX range (view nvtx_ranges) projected onto the GPU, shared
-- by nvtx_gpu_proj_sum and nvtx_gpu_proj_trace. A range's GPU operations are the kernels, memcpys
-- and memsets started by CUDA API calls that lie wholly inside the range ([start, end]) on the
-- range's thread, ops of nested ranges included; its projection runs from the start of the first
-- of them to the end of the last. Ranges without GPU operations are left out. Times in ns.
-- Reads nvtx_ranges and nvtx_range_gpu_ops.
--
-- Cost: the range/operation pairs (nvtx_range_gpu_ops) are read once, grouped per range; nesting
-- is a sort and two window passes, O(r log r). The TEMP table is built once per connection.

-- The projected ranges; id is the position in start order (enclosing ranges first at equal
-- starts).
CREATE TEMP TABLE IF NOT EXISTS nvtx_gpu_proj_spans AS
WITH
  projections AS (
    SELECT eventRow, min(start) AS projStart, max(end) AS projEnd, count(*) AS numOps
    FROM nvtx_range_gpu_ops
    GROUP BY eventRow
  )
SELECT
  row_number() OVER (ORDER BY r.start, r.end DESC, r.globalTid, r.domainId, r.eventRow) AS id,
  r.name, r.style, r.globalTid, r.domainId, r.start, r.end, r.duration, p.projStart, p.projEnd,
  p.numOps
FROM nvtx_ranges AS r
JOIN projections AS p USING (eventRow);

-- Nesting, as nvtx_pushpop_trace derives it: push/pop ranges nest per thread and NVTX domain (a
-- range's parent is the innermost projected range still open when it starts; at one timestamp
-- closes come before opens); start/end ranges do not nest (level 0, no parent). Projected ranges
-- are closed upwards (a range's ops are ops of every enclosing range), so levels are the same as
-- over all ranges; NumChild counts projected children only.
CREATE TEMP VIEW IF NOT EXISTS nvtx_gpu_proj_ranges AS
WITH
  events AS (
    SELECT globalTid, domainId, start AS ts, 1 AS phase, id, 1 AS delta
    FROM nvtx_gpu_proj_spans WHERE style = 'PushPop'
    UNION ALL
    SELECT globalTid, domainId, end, CASE WHEN end > start THEN 0 ELSE 1 END, id, -1
    FROM nvtx_gpu_proj_spans WHERE style = 'PushPop'
  ),
  -- include: parts/nvtx_nesting.sql
  children AS (
    SELECT parentId AS id, count(*) AS numChild FROM parents
    WHERE parentId IS NOT NULL
    GROUP BY parentId
  )
SELECT
  -- range id (1-based position in start order)
  spans.id,
  -- "<domain>:<name>", PushPop or StartEnd, thread, NVTX domain id
  spans.name, spans.style, spans.globalTid, spans.domainId,
  -- the range's own start, end and duration (ns)
  spans.start, spans.end, spans.duration,
  -- start of its first GPU operation, end of its last (ns), number of GPU operations
  spans.projStart, spans.projEnd, spans.numOps,
  -- nesting level (0: outermost), id of the enclosing projected range (NULL at level 0), number
  -- of projected direct children
  coalesce(parents.lvl, 0) AS lvl,
  parents.parentId AS parentId,
  coalesce(children.numChild, 0) AS numChild
FROM nvtx_gpu_proj_spans AS spans
LEFT JOIN parents USING (id)
LEFT JOIN children USING (id);
