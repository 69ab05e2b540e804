-- gpu_metrics_sum: GPU Metrics Summary. prof's own: per GPU and metric, the samples of the GPU's
-- performance counters (GPU_METRICS, prof profile --gpu-metrics-devices or nsys's) over the whole
-- run and over the steady state that prof analyze uses (the repeating NVTX range after its first
-- warmup= instances: analysis_steady_state, filled with the report's step= and warmup= options);
-- with nvtx=<text>, over each instance of the NVTX ranges of that name (its text or
-- "<domain>:<text>") instead. A sample belongs to a window when start <= timestamp < end (its value
-- holds from its timestamp to the next sample's); every sample weighs the same, which at a fixed
-- sampling frequency is the time-weighted mean. Windows without samples are left out. Values in
-- the metric's unit (its name says which: % of peak, MHz, ...); times in ns. Rows by window (the
-- whole run, the steady state; NVTX instances by start), then GPU, metric name. Reads the
-- gpu_metric_samples and nvtx_ranges views and analysis_steady_state.
WITH
  nvtx AS (SELECT value AS name FROM report_options WHERE name = 'nvtx'),
  windows AS (
    SELECT 0 AS id, 'Whole run' AS label, -(1 << 62) AS start, 1 << 62 AS end
    WHERE NOT EXISTS (SELECT 1 FROM nvtx)
    UNION ALL
    SELECT 1, printf('Steady state (%s %d-%d of %d)', name, skipped + 1, instances, instances),
           start, end
    FROM analysis_steady_state
    WHERE start IS NOT NULL AND NOT EXISTS (SELECT 1 FROM nvtx)
    UNION ALL
    SELECT 2 + r.eventRow, r.name, r.start, r.end
    FROM nvtx_ranges AS r, nvtx
    WHERE r.text = nvtx.name OR r.name = nvtx.name
  ),
  ranked AS (
    SELECT w.id, w.label, w.start AS windowStart, w.end AS windowEnd, s.typeId, s.gpu, s.metric,
           s.timestamp, s.value,
           ROW_NUMBER() OVER (PARTITION BY w.id, s.typeId, s.metric ORDER BY s.value) AS rank,
           count(*) OVER (PARTITION BY w.id, s.typeId, s.metric) AS n
    FROM windows AS w
    JOIN gpu_metric_samples AS s ON s.timestamp >= w.start AND s.timestamp < w.end
  )
SELECT
  -- 'Whole run', 'Steady state (<range> <first>-<last> of <instances>)' or the NVTX range's name
  label AS "Window",
  -- the window's start; for the whole run, the first sample's time
  CASE id WHEN 0 THEN min(timestamp) ELSE windowStart END AS "Start (ns)",
  -- the window's length; for the whole run, from the first sample to the last
  CASE id WHEN 0 THEN max(timestamp) - min(timestamp) ELSE windowEnd - windowStart END
    AS "Duration (ns)",
  -- the GPU's id (TARGET_INFO_GPU.id, the kernels' Device ID)
  gpu AS "GPU",
  -- the metric's name as the report spells it, unit in brackets
  metric AS "Metric",
  -- samples in the window
  n AS "Samples",
  -- mean, median (mean of the two middle values for an even count), 5th and 95th percentiles
  -- (nearest rank: the value at rank ceil(p * n / 100)) and maximum of the samples
  round(avg(value), 1) AS "Avg",
  round(median(value), 1) AS "Med",
  min(CASE WHEN rank * 100 >= 5 * n THEN value END) AS "P5",
  min(CASE WHEN rank * 100 >= 95 * n THEN value END) AS "P95",
  max(value) AS "Max"
FROM ranked
GROUP BY id, typeId, metric
ORDER BY min(id, 2), windowStart, gpu, metric, typeId;
