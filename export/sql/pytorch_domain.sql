-- One row when a process of the report created the NVTX domain "PyTorch" (eventType 75,
-- NvtxDomainCreate), where `prof profile --pytorch=functions-trace` puts its module ranges.
SELECT 1 FROM NVTX_EVENTS WHERE eventType = 75 AND text = 'PyTorch' LIMIT 1;
