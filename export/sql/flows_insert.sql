-- One flow per API call whose (pid, correlationId) launched GPU work. A GPU operation without its
-- API call in the report gets no flow, so every flow has both ends.
INSERT OR IGNORE INTO export_flows (pid, correlationId)
SELECT (r.globalTid >> 24) & 0xFFFFFF, r.correlationId
FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r
WHERE EXISTS (
  SELECT 1 FROM export_gpu_launches AS g
  WHERE g.pid = (r.globalTid >> 24) & 0xFFFFFF AND g.correlationId = r.correlationId)
ORDER BY r.start;
