-- Push/pop nesting, shared by reports/nvtx_pushpop_trace.sql and views/nvtx_gpu_proj_ranges.sql
-- (embedded where they say "-- include: parts/nvtx_nesting.sql"). Continues a WITH that has
-- already defined events(globalTid, domainId, ts, phase, id, delta): +1 when a range opens, -1
-- when it closes, phase 0 before 1 at one timestamp, id the range's position in start order.
-- Defines leveled(id, globalTid, domainId, lvl) and parents(id, lvl, parentId), and ends with a
-- comma for the CTEs that follow.
  -- A range's level is the number of ranges open just before it opens.
  leveled AS (
    SELECT id, globalTid, domainId, depth - 1 AS lvl
    FROM (
      SELECT
        id, globalTid, domainId, delta,
        sum(delta) OVER (PARTITION BY globalTid, domainId ORDER BY ts, phase, id, delta DESC
                         ROWS UNBOUNDED PRECEDING) AS depth
      FROM events
    )
    WHERE delta = 1
  ),
  -- The parent of a range at level L is the last range before it (in id order) at level L-1 of
  -- the same thread and domain: every range is listed once at its own level (isRange 1) and once
  -- as a probe at level L-1 (isRange 0), which picks up the last range id seen there.
  probes AS (
    SELECT globalTid, domainId, lvl, lvl AS level, id, 1 AS isRange FROM leveled
    UNION ALL
    SELECT globalTid, domainId, lvl, lvl - 1, id, 0 FROM leveled
  ),
  parents AS (
    SELECT id, lvl, parentId
    FROM (
      SELECT
        id, lvl, isRange,
        max(CASE WHEN isRange = 1 THEN id END) OVER (
          PARTITION BY globalTid, domainId, level ORDER BY id
          ROWS UNBOUNDED PRECEDING) AS parentId
      FROM probes
    )
    WHERE isRange = 0
  ),
