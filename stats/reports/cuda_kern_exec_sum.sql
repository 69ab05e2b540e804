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
-- medians and standard deviations rounded to 0.1 ns. Reads the cuda_kernels and cuda_api_calls
-- views.
WITH
  launches AS (
    SELECT
      (api.globalTid >> 24) & 0xFFFFFF AS pid,
      api.globalTid & 0xFFFFFF AS tid,
      k.deviceId AS device,
      max(api.end, k.end) - api.start AS total,
      api.duration AS api,
      CASE WHEN k.start >= api.end THEN k.start - api.end END AS queue,
      k.end - k.start AS kernel,
      api.name AS apiName,
      k.name AS kernelName
    FROM cuda_kernels AS k
    JOIN cuda_api_calls AS api
      ON api.correlationId = k.correlationId
      AND (api.globalTid & 0xFFFFFFFFFF000000) = k.globalPid
  )
SELECT
  -- process and thread that made the launch call
  pid AS "PID",
  tid AS "TID",
  -- CUDA device that ran the kernel
  device AS "DevId",
  -- number of launches
  count(*) AS "Count",
  -- number of launches with a queue time
  count(queue) AS "QCount",
  -- total time: mean, median, min, max, sample standard deviation (ns)
  round(avg(total), 1) AS "TAvg (ns)",
  round(median(total), 1) AS "TMed (ns)",
  min(total) AS "TMin (ns)",
  max(total) AS "TMax (ns)",
  round(stdev(total), 1) AS "TStdDev (ns)",
  -- API time (ns)
  round(avg(api), 1) AS "AAvg (ns)",
  round(median(api), 1) AS "AMed (ns)",
  min(api) AS "AMin (ns)",
  max(api) AS "AMax (ns)",
  round(stdev(api), 1) AS "AStdDev (ns)",
  -- queue time (ns), over the QCount launches; empty when QCount is 0, except QStdDev: nsys
  -- prints 0.0 there
  round(avg(queue), 1) AS "QAvg (ns)",
  round(median(queue), 1) AS "QMed (ns)",
  min(queue) AS "QMin (ns)",
  max(queue) AS "QMax (ns)",
  round(coalesce(stdev(queue), 0.0), 1) AS "QStdDev (ns)",
  -- kernel time (ns)
  round(avg(kernel), 1) AS "KAvg (ns)",
  round(median(kernel), 1) AS "KMed (ns)",
  min(kernel) AS "KMin (ns)",
  max(kernel) AS "KMax (ns)",
  round(stdev(kernel), 1) AS "KStdDev (ns)",
  -- launch function, version suffix dropped
  apiName AS "API Name",
  -- kernel name (base / mangled with those options)
  kernelName AS "Kernel Name"
FROM launches
GROUP BY pid, tid, device, apiName, kernelName
ORDER BY avg(total) DESC, pid, tid, device, apiName, kernelName;
