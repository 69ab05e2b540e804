-- View pytorch_range_sums: the ranges of pytorch_ranges added up per kind and name (and input
-- shapes with the report option `shapes`), the way PyTorch Profiler's key_averages() adds up its
-- events; shared by pytorch_op_sum and pytorch_module_sum. Times in ns. Reads pytorch_ranges,
-- nvtx_range_gpu_ops, nvtx_gpu_ops and report_options (`shapes`;
-- `sort=self_cpu|total_cpu|self_gpu|total_gpu|calls`, default self_cpu).
--
-- A range's GPU time sums the durations of the kernels, memcpys and memsets whose CUDA call lies
-- inside it on its thread (nvtx_range_gpu_ops: nested ranges' work included); its self GPU time
-- leaves out the direct children's, as self CPU time does.
-- Percentages are of the kind's summed self time (key_averages' denominators: the time inside
-- the outermost ranges), so a total can exceed 100. The GPU columns are NULL when the report
-- has no GPU operation with its CUDA call (a CPU-only run), rather than zeros that look measured.
CREATE TEMP VIEW IF NOT EXISTS pytorch_range_sums AS
WITH
  options AS (
    SELECT EXISTS (SELECT 1 FROM report_options WHERE name = 'shapes') AS byShapes,
           coalesce((SELECT value FROM report_options WHERE name = 'sort'), 'self_cpu') AS sortBy,
           EXISTS (SELECT 1 FROM nvtx_gpu_ops) AS hasGpu
  ),
  -- the view's nesting is computed once for the three reads below
  picked AS MATERIALIZED (SELECT * FROM pytorch_ranges),
  gpu AS (
    SELECT r.id, r.parentId, sum(o.end - o.start) AS gpuTime
    FROM picked AS r JOIN nvtx_range_gpu_ops AS o USING (eventRow)
    GROUP BY r.id
  ),
  child_gpu AS (
    SELECT parentId AS id, sum(gpuTime) AS childGpuTime FROM gpu WHERE parentId IS NOT NULL
    GROUP BY parentId
  ),
  ranges AS (
    SELECT r.*, coalesce(gpu.gpuTime, 0) AS gpuTime,
           coalesce(gpu.gpuTime, 0) - coalesce(child_gpu.childGpuTime, 0) AS selfGpuTime
    FROM picked AS r LEFT JOIN gpu USING (id) LEFT JOIN child_gpu USING (id)
  ),
  -- A module's backward (kind 'module_backward'): the backward nodes of the operators its forward
  -- ran (pytorch_ranges' backwardModuleId: direct 1), and for its total its child modules' nodes
  -- (direct 0).
  node_modules(nodeId, moduleId, direct) AS (
    SELECT id, backwardModuleId, 1 FROM picked WHERE backwardModuleId IS NOT NULL
    UNION ALL
    SELECT nm.nodeId, m.parentId, 0
    FROM node_modules AS nm JOIN picked AS m ON m.id = nm.moduleId
    WHERE m.parentId IS NOT NULL
  ),
  backward AS (
    SELECT m.name, sum(b.duration) AS totalTime,
           sum(b.duration * nm.direct) AS selfTime, sum(b.gpuTime) AS gpuTime,
           sum(b.gpuTime * nm.direct) AS selfGpuTime
    FROM node_modules AS nm
      JOIN ranges AS b ON b.id = nm.nodeId
      JOIN picked AS m ON m.id = nm.moduleId
    GROUP BY nm.moduleId
  ),
  grouped AS (
    SELECT kind, name, CASE WHEN options.byShapes THEN shapes END AS shapes, count(*) AS calls,
           sum(selfTime) AS selfTime, sum(duration) AS totalTime,
           CASE WHEN options.hasGpu THEN sum(selfGpuTime) END AS selfGpuTime,
           CASE WHEN options.hasGpu THEN sum(gpuTime) END AS gpuTime
    FROM ranges, options
    GROUP BY kind, name, 3
    UNION ALL
    -- calls: the module calls whose backward ran
    SELECT 'module_backward', name, NULL, count(*), sum(selfTime), sum(totalTime),
           CASE WHEN options.hasGpu THEN sum(selfGpuTime) END,
           CASE WHEN options.hasGpu THEN sum(gpuTime) END
    FROM backward, options
    GROUP BY name
  ),
  kinds AS (
    SELECT kind, sum(selfTime) AS selfTime, sum(selfGpuTime) AS selfGpuTime
    FROM grouped GROUP BY kind
  )
SELECT
  g.kind, g.name, g.shapes, g.calls, g.selfTime, g.totalTime, g.selfGpuTime, g.gpuTime,
  -- shares of the kind's summed self time (%), one decimal
  round(100.0 * g.selfTime / k.selfTime, 1) AS selfPercent,
  round(100.0 * g.totalTime / k.selfTime, 1) AS totalPercent,
  round(100.0 * g.selfGpuTime / k.selfGpuTime, 1) AS selfGpuPercent,
  -- means per call (ns), rounded to 0.1
  round(1.0 * g.totalTime / g.calls, 1) AS avgTime,
  round(1.0 * g.gpuTime / g.calls, 1) AS avgGpuTime,
  -- position in the order the `sort` option picks, largest first (ties by name, shapes)
  row_number() OVER (
    PARTITION BY g.kind
    ORDER BY CASE o.sortBy
               WHEN 'total_cpu' THEN g.totalTime
               WHEN 'self_gpu' THEN g.selfGpuTime
               WHEN 'total_gpu' THEN g.gpuTime
               WHEN 'calls' THEN g.calls
               ELSE g.selfTime
             END DESC NULLS LAST, g.name, g.shapes) AS sortRank
FROM grouped AS g JOIN kinds AS k USING (kind), options AS o;
