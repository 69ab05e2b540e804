-- cuda_kern_exec_sum: CUDA Kernel Launch & Exec Time Summary. One row per launching thread, device,
-- launch API function and kernel name, with four statistics of each launch:
--   T: total time, from the start of the API call to the end of the call or of the kernel,
--      whichever is later;
--   A: API time, the duration of the launch call on the CPU;
--   Q: queue time, from the end of the call to the start of the kernel; only launches whose
--      kernel started at or after the call's end have one (QCount), the others are left out of
--      the Q statistics;
--   K: kernel time, the kernel's execution on the GPU.
-- A kernel belongs to the API call of the same correlationId in the same process. Rows by TAvg,
-- largest first (ties by PID, TID, device, API name, kernel name). Times in ns; averages,
-- medians and standard deviations rounded to 0.1 ns. Reads the cuda_kernel_launches view.
SELECT
  -- process and thread that made the launch call
  pid AS "PID",
  tid AS "TID",
  -- CUDA device that ran the kernel
  deviceId AS "DevId",
  -- number of launches
  count(*) AS "Count",
  -- number of launches with a queue time
  count(queueDuration) AS "QCount",
  -- total time: mean, median, min, max, sample standard deviation (ns)
  round(avg(totalDuration), 1) AS "TAvg (ns)",
  round(median(totalDuration), 1) AS "TMed (ns)",
  min(totalDuration) AS "TMin (ns)",
  max(totalDuration) AS "TMax (ns)",
  round(stdev(totalDuration), 1) AS "TStdDev (ns)",
  -- API time (ns)
  round(avg(apiDuration), 1) AS "AAvg (ns)",
  round(median(apiDuration), 1) AS "AMed (ns)",
  min(apiDuration) AS "AMin (ns)",
  max(apiDuration) AS "AMax (ns)",
  round(stdev(apiDuration), 1) AS "AStdDev (ns)",
  -- queue time (ns), over the QCount launches; empty when QCount is 0, except QStdDev: nsys
  -- prints 0.0 there
  round(avg(queueDuration), 1) AS "QAvg (ns)",
  round(median(queueDuration), 1) AS "QMed (ns)",
  min(queueDuration) AS "QMin (ns)",
  max(queueDuration) AS "QMax (ns)",
  round(coalesce(stdev(queueDuration), 0.0), 1) AS "QStdDev (ns)",
  -- kernel time (ns)
  round(avg(kernelDuration), 1) AS "KAvg (ns)",
  round(median(kernelDuration), 1) AS "KMed (ns)",
  min(kernelDuration) AS "KMin (ns)",
  max(kernelDuration) AS "KMax (ns)",
  round(stdev(kernelDuration), 1) AS "KStdDev (ns)",
  -- launch function, version suffix dropped
  apiName AS "API Name",
  -- kernel name (base / mangled with those options)
  kernelName AS "Kernel Name"
FROM cuda_kernel_launches
GROUP BY pid, tid, deviceId, apiName, kernelName
ORDER BY avg(totalDuration) DESC, pid, tid, deviceId, apiName, kernelName;
