-- gpu_metric_samples: every GPU metric sample (GPU_METRICS) with its metric's name
-- (TARGET_INFO_GPU_METRICS, joined on typeId and metricId: metric ids are the report's own, so
-- metrics are told apart by name). A sample's timestamp is the start of the period its value covers,
-- which ends at the series' next sample (nsys's convention: docs/gpu-metrics.md), so it belongs to
-- a window [start, end) when start <= timestamp < end.
--   typeId     the series' type (a merged report keeps inputs' GPUs apart by it)
--   gpu        the GPU's id (TARGET_INFO_GPU.id, the kernels' deviceId): typeId's low byte
--   metric     the metric's name, e.g. "SMs Active [Throughput %]"
--   timestamp  ns since the session start
--   value      in the metric's unit (its name's brackets)
-- A TEMP table indexed by timestamp, built once per connection: windows (NVTX range instances,
-- the steady state) read their samples by index, O(log n + samples) each.
CREATE TEMP TABLE IF NOT EXISTS gpu_metric_samples AS
SELECT s.typeId AS typeId, s.typeId & 0xFF AS gpu, m.metricName AS metric,
       s.timestamp AS timestamp, s.value AS value
FROM GPU_METRICS AS s
JOIN TARGET_INFO_GPU_METRICS AS m ON m.typeId = s.typeId AND m.metricId = s.metricId;
CREATE INDEX IF NOT EXISTS temp.gpu_metric_samples_by_time ON gpu_metric_samples (timestamp);
