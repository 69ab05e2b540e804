-- cuda_gpu_mem_size_sum: CUDA GPU MemOps Summary (by Size). One row per kind of GPU memory
-- operation ("[CUDA memcpy Host-to-Device]", "[CUDA memset]", ...): how often it ran and how many
-- bytes it moved or set. Sizes in MB (10^6 bytes), printed with three decimals as nsys prints
-- them (size_unit.h). Rows by Total, largest first (ties by operation). Reads the
-- cuda_gpu_mem_ops view.
WITH
  summary AS (
    -- size statistics per name in one pass (stats/duration_summary.h)
    SELECT key1 AS name, total, instances AS operations, mean, middle, shortest AS smallest,
      longest AS largest, deviation
    FROM duration_summary((SELECT duration_groups(bytes, name) FROM cuda_gpu_mem_ops))
  )
SELECT
  -- bytes of all operations, summed (MB)
  total / 1e6 AS "Total (MB)",
  -- number of operations
  operations AS "Count",
  -- mean size (MB)
  mean / 1e6 AS "Avg (MB)",
  -- median size (MB): the mean of the two middle values for an even count
  middle / 1e6 AS "Med (MB)",
  -- smallest operation (MB)
  smallest / 1e6 AS "Min (MB)",
  -- largest operation (MB)
  largest / 1e6 AS "Max (MB)",
  -- sample standard deviation of the sizes (MB), 0 for a single operation
  deviation / 1e6 AS "StdDev (MB)",
  -- "[CUDA memcpy <copy kind>]" or "[CUDA memset]"
  name AS "Operation"
FROM summary
ORDER BY total DESC, name;
