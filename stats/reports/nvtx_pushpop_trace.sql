-- nvtx_pushpop_trace: NVTX Push/Pop Range Trace. One row per push/pop range that ended, with its
-- place in the push/pop stack of its thread and NVTX domain (NVTX keeps one stack per thread and
-- domain). Rows by start time (ties: the enclosing range first). Times in ns. Reads the
-- nvtx_ranges view.
--
-- Nesting is derived from the timestamps: a range's parent is the innermost range of the same
-- thread and domain that is still open when it starts. At one timestamp, ranges that end there
-- close before ranges that start there open, so back-to-back ranges are siblings, and a
-- zero-length range closes right after it opens.
WITH RECURSIVE
  -- RangeId: position in start order, longer (enclosing) ranges first at equal starts.
  ranges AS (
    SELECT
      row_number() OVER (ORDER BY start, end DESC, globalTid, domainId, eventRow) AS id,
      start, end, duration, name, globalTid, domainId
    FROM nvtx_ranges
    WHERE style = 'PushPop'
  ),
  -- +1 when a range opens, -1 when it closes. Events of one timestamp: closes of ranges with a
  -- length first (phase 0), then opens in RangeId order (phase 1), a zero-length range closing
  -- right after it opens. The window steps below carry ids and keys only: sorting is cheaper
  -- without the names.
  events AS (
    SELECT globalTid, domainId, start AS ts, 1 AS phase, id, 1 AS delta FROM ranges
    UNION ALL
    SELECT globalTid, domainId, end, CASE WHEN end > start THEN 0 ELSE 1 END, id, -1 FROM ranges
  ),
  -- include: parts/nvtx_nesting.sql
  tree AS (
    SELECT ranges.*, parents.lvl, parents.parentId FROM ranges JOIN parents USING (id)
  ),
  children AS (
    SELECT parentId AS id, count(*) AS numChild, sum(duration) AS durChild
    FROM tree
    WHERE parentId IS NOT NULL
    GROUP BY parentId
  ),
  -- ":<root id>:...:<own id>", built from the roots down.
  stacks(id, rangeStack) AS (
    SELECT id, ':' || id FROM parents WHERE parentId IS NULL
    UNION ALL
    SELECT parents.id, stacks.rangeStack || ':' || parents.id
    FROM parents JOIN stacks ON parents.parentId = stacks.id
  )
SELECT
  -- range start timestamp (ns)
  tree.start AS "Start (ns)",
  -- range end timestamp (ns)
  tree.end AS "End (ns)",
  -- End - Start (ns)
  tree.duration AS "Duration (ns)",
  -- summed duration of the direct children (ns)
  coalesce(children.durChild, 0) AS "DurChild (ns)",
  -- Duration - DurChild (ns)
  tree.duration - coalesce(children.durChild, 0) AS "DurNonChild (ns)",
  -- "<domain>:<name>", ":<name>" in the default domain
  tree.name AS "Name",
  -- process id
  (tree.globalTid >> 24) & 0xFFFFFF AS "PID",
  -- thread id
  tree.globalTid & 0xFFFFFF AS "TID",
  -- stack level, 0 for a range pushed on an empty stack
  tree.lvl AS "Lvl",
  -- number of direct children
  coalesce(children.numChild, 0) AS "NumChild",
  -- this range's id (1-based position in start order)
  tree.id AS "RangeId",
  -- RangeId of the enclosing range, NULL at level 0
  tree.parentId AS "ParentId",
  -- RangeIds from the outermost range down to this one, each preceded by ':'
  stacks.rangeStack AS "RangeStack",
  -- Name after two '-' per level ("----:inner" at level 2)
  CASE WHEN tree.lvl = 0 THEN tree.name ELSE printf('%.*c%s', 2 * tree.lvl, '-', tree.name) END
    AS "NameTree"
FROM tree
LEFT JOIN children USING (id)
JOIN stacks USING (id)
ORDER BY tree.id;
