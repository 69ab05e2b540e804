-- overlap: per device of a process, how much copy time kernels hide, and whether the GPU is
-- launch-bound (analyze_device_overlap computes both). Times in ns.
-- Launch-bound signs: a large share of kernel time in kernels shorter than 10 us, and a short
-- median launch-to-start latency (kernel start - start of its launching call): the GPU runs each
-- kernel as soon as the host issues it, so it waits for the host.
-- One row per process and device, by PID then device, at most rows= rows.
SELECT
  pid AS "PID",
  deviceId AS "Device ID",
  kernels AS "Kernels",
  kernelTime AS "Kernel Time (ns)",                              -- summed kernel durations
  shortKernels AS "Short Kernels",                               -- kernels under 10 us
  round(100.0 * shortTime / kernelTime, 1) AS "Short Kernel Time (%)",
  round(launchLatency, 1) AS "Med Launch Latency (ns)",          -- kernel start - call start
  copies AS "Copies",
  copyTime AS "Copy Time (ns)",                                  -- summed copy durations
  overlapped AS "Overlapped Copy Time (ns)",                     -- copy time under kernels
  round(100.0 * overlapped / copyTime, 1) AS "Copy Overlap (%)"
FROM analyze_device_overlap
ORDER BY pid, deviceId
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
