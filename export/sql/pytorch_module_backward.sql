-- Module backward slices of `prof profile --pytorch` (docs/pytorch.md), nested as the modules'
-- forward ranges are: a module's slice spans a run of consecutive backward nodes on a thread
-- that its forward made, its child modules' forwards included (pytorch_ranges.backwardModuleId
-- names the innermost module; a module's parents are its enclosing module ranges), from the run's
-- first node's start to its last node's end. A run ends at a node outside the module (another
-- module's, or one of no module at that depth), or where the sequence number rises: autograd
-- runs a pass's nodes from the highest number down, so a rise is the next backward pass (or a
-- branch that became ready late). Every depth breaks on the same nodes or more, so a module's
-- slices lie inside its parent's. Needs the views nvtx_ranges and pytorch_ranges (stats/views).
-- Times in ns; in start order, the enclosing slice first.
WITH RECURSIVE
  -- the view once: each read of it would compute its nesting again
  picked AS MATERIALIZED (
    SELECT id, parentId, kind, name, globalTid, start, end, seq, backwardModuleId
    FROM pytorch_ranges WHERE kind = 'module' OR backwardModuleId IS NOT NULL
  ),
  modules AS (SELECT id, parentId, name FROM picked WHERE kind = 'module'),
  -- a module range's depth below its outermost module range (0)
  module_depths(id, depth) AS (
    SELECT id, 0 FROM modules WHERE parentId IS NULL
    UNION ALL
    SELECT m.id, d.depth + 1 FROM modules AS m JOIN module_depths AS d ON m.parentId = d.id
  ),
  nodes AS (
    SELECT id, globalTid, start, end, seq, backwardModuleId
    FROM picked WHERE backwardModuleId IS NOT NULL
  ),
  -- each node's module and that module's enclosing ones, with their depths
  node_modules(nodeId, moduleId) AS (
    SELECT id, backwardModuleId FROM nodes
    UNION ALL
    SELECT nm.nodeId, m.parentId
    FROM node_modules AS nm JOIN modules AS m ON m.id = nm.moduleId
    WHERE m.parentId IS NOT NULL
  ),
  depths AS (SELECT DISTINCT depth FROM module_depths),
  -- every node at every depth, with its module there (NULL: none so deep)
  leveled AS (
    SELECT n.globalTid, n.start, n.end, n.seq, depths.depth, nm.moduleId
    FROM nodes AS n CROSS JOIN depths
      LEFT JOIN (node_modules AS nm JOIN module_depths AS md ON md.id = nm.moduleId)
        ON nm.nodeId = n.id AND md.depth = depths.depth
  ),
  breaks AS (
    SELECT *,
           CASE WHEN moduleId IS lag(moduleId) OVER thread_order
                  AND seq <= lag(seq) OVER thread_order THEN 0 ELSE 1 END AS first
    FROM leveled
    WINDOW thread_order AS (PARTITION BY globalTid, depth ORDER BY start, end DESC)
  ),
  runs AS (
    SELECT *, sum(first) OVER (PARTITION BY globalTid, depth ORDER BY start, end DESC
                               ROWS UNBOUNDED PRECEDING) AS run
    FROM breaks
  )
SELECT
  min(runs.start),
  max(runs.end),
  module.name || ' backward',
  runs.globalTid,
  -- the backward nodes in the slice (a node's own nested node ranges counted too)
  count(*)
FROM runs JOIN modules AS module ON module.id = runs.moduleId
GROUP BY runs.globalTid, runs.depth, runs.run
ORDER BY 1, 2 DESC, runs.depth;
