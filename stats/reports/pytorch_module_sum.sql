-- pytorch_module_sum: PyTorch Module Summary. prof's own: the nn.Module calls of `prof profile
-- --pytorch=functions-trace` (view pytorch_ranges: push/pop ranges of the NVTX domain `PyTorch`
-- named "<path> (<class>)"), one row per module path, all threads and processes together. Self
-- CPU time is the duration less the direct child modules' on the same thread (a Linear's own
-- operators are self time of the Linear); GPU time sums the GPU work whose CUDA call lies inside
-- the module's call. Option sort=self_cpu (default), total_cpu, self_gpu, total_gpu or calls,
-- largest first (ties by name). Percentages are of the summed self CPU (or self GPU) time. Times
-- in ns. Reads the pytorch_range_sums view.
SELECT
  -- include: parts/pytorch_sum_columns.sql
  -- module path in the model and class (`Net.conv (Conv2d)`)
  name AS "Module"
FROM pytorch_range_sums
WHERE kind = 'module'
ORDER BY sortRank;
