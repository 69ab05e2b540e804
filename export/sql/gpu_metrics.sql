-- The GPU metric samples as counter values, one counter per GPU (typeId's low byte) and metric
-- name, in (GPU, metric, time) order. A sample's value holds from the series' previous sample to
-- its own timestamp, so it is drawn from the previous sample's time; the first sample of a series
-- is taken to cover as long a period as the next one (or none, when it is alone). Samples without
-- a session timestamp are left out.
SELECT gpu, metric, coalesce(previous, timestamp - (next - timestamp), timestamp), value
FROM (
  SELECT s.typeId & 0xFF AS gpu, m.metricName AS metric, s.timestamp, s.value,
         lag(s.timestamp) OVER series AS previous, lead(s.timestamp) OVER series AS next
  FROM GPU_METRICS AS s
  JOIN TARGET_INFO_GPU_METRICS AS m ON m.typeId = s.typeId AND m.metricId = s.metricId
  WHERE s.timestamp IS NOT NULL
  WINDOW series AS (PARTITION BY s.typeId, s.metricId ORDER BY s.timestamp)
)
ORDER BY gpu, metric, 3;
