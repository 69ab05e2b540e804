-- gpu_underuse: windows (step instances, or the rule's window) in which a GPU's kernels ran
-- nearly all the time but left most of the GPU unused: kernel busy time >= busy= % of the window
-- and SMs Active (else SM Issue) mean <= sm= % (analyze_gpu_underuse). prof's own; needs GPU
-- metrics (prof profile --gpu-metrics-devices, or nsys's). Metric means are of the samples in the
-- window, in %, rounded to 0.1. Lowest judged mean first (ties by start, device), at most rows=.
SELECT
  -- the step range's name, empty for the rule's whole window
  w.label AS "Window",
  w.start AS "Start (ns)",
  w.end - w.start AS "Duration (ns)",
  w.device AS "Device ID",
  -- share of the window during which a kernel ran (concurrent kernels count once)
  round(w.busy, 1) AS "Kernel Busy (%)",
  -- means of the metrics' samples in the window (empty where the GPU has none)
  round(w.smActive, 1) AS "SMs Active (%)",
  round(w.smIssue, 1) AS "SM Issue (%)",
  round(w.tensorActive, 1) AS "Tensor Active (%)",
  -- the kernels with the most time in the window, at most 3: "<name> (<ms> ms)", most first
  (SELECT group_concat(entry, '; ') FROM (
     SELECT printf('%s (%.3f ms)', k.name, k.time / 1e6) AS entry
     FROM analyze_gpu_underuse_kernels AS k
     WHERE k.device = w.device AND k.start = w.start
     ORDER BY k.time DESC, k.name LIMIT 3)) AS "Top Kernels"
FROM analyze_gpu_underuse AS w
ORDER BY w.used, w.start, w.device
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
