-- The time columns of pytorch_op_sum and pytorch_module_sum (embedded where they say
-- "-- include: parts/pytorch_sum_columns.sql"), read from the view pytorch_range_sums; a SELECT
-- list that ends with a comma for the name columns that follow.
  -- self time as a share of the summed self time of all rows (%)
  selfPercent AS "Self CPU (%)",
  -- summed self time: duration less direct children's (ns)
  selfTime AS "Self CPU (ns)",
  -- summed duration as a share of the summed self time of all rows (%)
  totalPercent AS "CPU Total (%)",
  -- summed duration (ns)
  totalTime AS "CPU Total (ns)",
  -- mean duration (ns)
  avgTime AS "CPU Avg (ns)",
  -- self GPU time as a share of all rows' (%); empty without GPU work in the report
  selfGpuPercent AS "Self GPU (%)",
  -- summed durations of the GPU work launched inside, less the direct children's (ns)
  selfGpuTime AS "Self GPU (ns)",
  -- summed durations of the GPU work launched inside, children's included (ns)
  gpuTime AS "GPU Total (ns)",
  -- mean GPU total per call (ns)
  avgGpuTime AS "GPU Avg (ns)",
  -- number of ranges
  calls AS "Calls",
