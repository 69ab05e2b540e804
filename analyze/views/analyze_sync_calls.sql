-- analyze_sync_calls: the CUDA calls of analyze_cuda_calls that block the calling thread until GPU
-- work is done (its syncKind says which kind), one row per call. Times in ns.
--   start, end, globalTid, name, kind, callchainId
CREATE TEMP VIEW IF NOT EXISTS analyze_sync_calls AS
SELECT start, end, globalTid, name, syncKind AS kind, callchainId FROM analyze_cuda_calls
WHERE syncKind IS NOT NULL;
