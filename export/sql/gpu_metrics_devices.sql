-- The GPUs with metric samples (typeId's low byte): each gets counters of its metrics.
SELECT DISTINCT typeId & 0xFF FROM TARGET_INFO_GPU_METRICS;
