-- pytorch_op_sum: PyTorch Operator Summary. prof's own: PyTorch Profiler's key_averages() table
-- from the operator ranges of `prof profile --pytorch=autograd-nvtx` (or autograd-shapes-nvtx,
-- or nsys's; view pytorch_ranges: push/pop ranges of the default NVTX domain whose text has
-- ", op_id = N"), one row per operator name (the text before ", seq =" / ", op_id ="), all
-- threads and processes together. Self CPU time is the duration less the direct child operators'
-- on the same thread; GPU time sums the GPU work whose CUDA call lies inside the operator.
-- Options: shapes (one row per name and input sizes, autograd-shapes-nvtx ranges);
-- sort=self_cpu (default), total_cpu, self_gpu, total_gpu or calls, largest first (ties by name,
-- shapes). Percentages are of the summed self CPU (or self GPU) time. Times in ns. Reads the
-- pytorch_range_sums view.
SELECT
  -- include: parts/pytorch_sum_columns.sql
  -- operator name (`aten::conv2d`, `AddmmBackward0`, `Optimizer.step#SGD.step`)
  name AS "Operator",
  -- with the shapes option, the input sizes (`[[8, 1, 8, 8], [4, 1, 3, 3], [4], ...]`)
  shapes AS "Input Shapes"
FROM pytorch_range_sums
WHERE kind = 'operator'
ORDER BY sortRank;
