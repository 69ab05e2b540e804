-- pytorch_module_sum: PyTorch Module Summary. prof's own: the nn.Module calls of `prof profile
-- --pytorch=functions-trace` (view pytorch_ranges: push/pop ranges of the NVTX domain `PyTorch`
-- named "<path> (<class>)"), one row per module path and pass, all threads and processes
-- together. Forward: self CPU time is the duration less the direct child modules' on the same
-- thread (a Linear's own operators are self time of the Linear); GPU time sums the GPU work whose
-- CUDA call lies inside the module's call. Backward (with operator ranges, autograd-nvtx): the
-- backward nodes made by the operators of the module's forward, tied by their sequence numbers;
-- self time is the nodes of the module's own operators, total time its child modules' too.
-- Option sort=self_cpu (default), total_cpu, self_gpu, total_gpu or calls, largest first within
-- each pass (ties by name). Percentages are of the pass's summed self CPU (or self GPU) time.
-- Times in ns. Reads the pytorch_range_sums view.
SELECT
  -- include: parts/pytorch_sum_columns.sql
  -- forward: the module's calls; backward: the backward nodes of the operators its forward ran
  CASE kind WHEN 'module' THEN 'forward' ELSE 'backward' END AS "Pass",
  -- module path in the model and class (`Net.conv (Conv2d)`)
  name AS "Module"
FROM pytorch_range_sums
WHERE kind IN ('module', 'module_backward')
ORDER BY kind, sortRank;
