-- nvtx_kern_sum: NVTX Range Kernel Summary. One row per NVTX range name and style, launching
-- thread and kernel name: the kernels whose launch call lies inside a range of that name on the
-- range's thread (view nvtx_range_gpu_ops, the rule of nvtx_gpu_proj_*). A kernel inside nested
-- ranges counts for each of them, and twice for one name when ranges of that name nest (as nsys).
-- Kernels launched outside every range are summarized too, with an empty range name and style
-- (nsys's LEFT JOIN). Rows by range name (the empty one first), PID, TID, then Total Time,
-- largest first (ties by style, kernel name). Times in ns; averages, medians and standard
-- deviations rounded to 0.1 ns. Reads nvtx_gpu_ops, nvtx_range_gpu_ops and cuda_kernels.
WITH
  combo AS (
    SELECT
      pairs.name AS name,
      pairs.style AS style,
      pairs.eventRow AS rangeRow,
      o.kernelRow AS kernelRow,
      (o.globalTid >> 24) & 0xFFFFFF AS pid,
      o.globalTid & 0xFFFFFF AS tid,
      k.end - k.start AS duration,
      k.name AS kernelName
    FROM nvtx_gpu_ops AS o
    JOIN cuda_kernels AS k ON k.kernelRow = o.kernelRow
    LEFT JOIN nvtx_range_gpu_ops AS pairs ON pairs.opRow = o.rowid
  )
SELECT
  -- "<domain>:<name>", ":<name>" in the default domain; empty outside every range
  name AS "NVTX Range",
  -- PushPop or StartEnd; empty outside every range
  style AS "Style",
  -- process and thread that launched the kernels (and opened the ranges)
  pid AS "PID",
  tid AS "TID",
  -- number of ranges that contain the kernels (0 outside every range)
  count(DISTINCT rangeRow) AS "NVTX Inst",
  -- number of kernels
  count(DISTINCT kernelRow) AS "Kern Inst",
  -- summed kernel time, over every (range, kernel) pair (ns)
  sum(duration) AS "Total Time (ns)",
  -- mean, median, min, max and sample standard deviation of the kernel times (ns)
  round(avg(duration), 1) AS "Avg (ns)",
  round(median(duration), 1) AS "Med (ns)",
  min(duration) AS "Min (ns)",
  max(duration) AS "Max (ns)",
  round(stdev(duration), 1) AS "StdDev (ns)",
  -- kernel name (base / mangled with those options)
  kernelName AS "Kernel Name"
FROM combo
GROUP BY pid, tid, name, style, kernelName
ORDER BY name, pid, tid, sum(duration) DESC, style, kernelName;
