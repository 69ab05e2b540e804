-- The launches of one GPU table ($TABLE: a CUPTI_ACTIVITY_KIND_* table with correlationId and
-- globalPid).
INSERT OR IGNORE INTO export_gpu_launches (pid, correlationId)
SELECT (globalPid >> 24) & 0xFFFFFF, correlationId
FROM $TABLE
WHERE correlationId IS NOT NULL;
