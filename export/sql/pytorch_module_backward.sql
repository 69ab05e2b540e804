-- Module backward slices of `prof profile --pytorch` (docs/pytorch.md): each run of consecutive
-- backward nodes on a thread that belong to one module (pytorch_ranges.backwardModuleId: the module
-- whose forward made the node), as one slice "<module> backward" from the run's first node's start
-- to its last node's end. A run ends where the next node belongs to another module, or where the
-- sequence number rises: autograd runs a pass's nodes from the highest number down, so a rise is
-- the next backward pass (or a branch that became ready late). Needs the views nvtx_ranges and
-- pytorch_ranges (stats/views). Times in ns; in start order.
WITH
  nodes AS (
    SELECT node.globalTid, node.start, node.end, node.seq, node.backwardModuleId AS moduleId,
           lag(node.backwardModuleId) OVER thread_order AS previousModuleId,
           lag(node.seq) OVER thread_order AS previousSeq
    FROM pytorch_ranges AS node
    WHERE node.backwardModuleId IS NOT NULL
    WINDOW thread_order AS (PARTITION BY node.globalTid ORDER BY node.start, node.end DESC)
  ),
  runs AS (
    SELECT *, sum(CASE WHEN previousModuleId IS moduleId AND seq <= previousSeq THEN 0 ELSE 1 END)
                OVER (PARTITION BY globalTid ORDER BY start, end DESC ROWS UNBOUNDED PRECEDING) AS run
    FROM nodes
  )
SELECT
  min(runs.start),
  max(runs.end),
  module.name || ' backward',
  runs.globalTid,
  -- the backward nodes in the slice (a node's own nested node ranges counted too)
  count(*)
FROM runs JOIN pytorch_ranges AS module ON module.id = runs.moduleId
GROUP BY runs.globalTid, runs.run
ORDER BY 1, 2 DESC;
