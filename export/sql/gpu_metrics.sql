-- The GPU metric samples as counter values, one counter per GPU (typeId's low byte) and metric
-- name, in (GPU, metric, time) order. A sample's timestamp is the start of the period its value
-- covers (nsys's convention: docs/gpu-metrics.md), so each value is drawn at its own time and holds
-- until the next.
SELECT s.typeId & 0xFF AS gpu, m.metricName AS metric, s.timestamp, s.value
FROM GPU_METRICS AS s
JOIN TARGET_INFO_GPU_METRICS AS m ON m.typeId = s.typeId AND m.metricId = s.metricId
ORDER BY gpu, metric, s.timestamp;
