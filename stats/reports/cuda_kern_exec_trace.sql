-- cuda_kern_exec_trace: CUDA Kernel Launch & Exec Time Trace. One row per kernel launch (view
-- cuda_kernel_launches, the launches cuda_kern_exec_sum summarizes): the launch call's API time,
-- the queue time from the call's end to the kernel's start (empty when the kernel started before
-- the call returned), the kernel time and the total time, from the call's start to the call's or
-- the kernel's end, whichever is later. Rows by API start (ties by PID, TID, kernel start, kernel
-- name). Times in ns. Reads the cuda_kernel_launches view.
SELECT
  -- start timestamp and duration of the launch call (ns)
  apiStart AS "API Start (ns)",
  apiDuration AS "API Dur (ns)",
  -- start timestamp (the call's end) and duration of the queue wait (ns), if any
  queueStart AS "Queue Start (ns)",
  queueDuration AS "Queue Dur (ns)",
  -- start timestamp and duration of the kernel (ns)
  kernelStart AS "Kernel Start (ns)",
  kernelDuration AS "Kernel Dur (ns)",
  -- from the call's start to the later of the call's and the kernel's end (ns)
  totalDuration AS "Total Dur (ns)",
  -- process and thread that made the launch call
  pid AS "PID",
  tid AS "TID",
  -- CUDA device that ran the kernel
  deviceId AS "DevId",
  -- launch function, version suffix dropped
  apiName AS "API Function",
  -- grid and block dimensions, each right-aligned in four characters (nsys's '%4d %4d %4d')
  printf('%4d %4d %4d', gridX, gridY, gridZ) AS "GridXYZ",
  printf('%4d %4d %4d', blockX, blockY, blockZ) AS "BlockXYZ",
  -- kernel name (base / mangled with those options)
  kernelName AS "Kernel Name"
FROM cuda_kernel_launches
ORDER BY apiStart, pid, tid, kernelStart, kernelName;
