-- View cuda_api_calls: every CUDA runtime and driver API call (CUPTI_ACTIVITY_KIND_RUNTIME), named
-- as nsys's CUDA API reports name them: a name whose last six characters start with "_v" loses
-- them, CUPTI's four-digit version suffix ("cudaLaunchKernel_v7000" -> "cudaLaunchKernel"); other
-- suffixes stay, as nsys 2025.3 prints them ("cudaLaunchKernelExC_v11060", "cuGetProcAddress_v2").
-- Shared by cuda_api_sum, cuda_api_gpu_sum and cuda_kern_exec_sum. Times in ns. Reads
-- CUPTI_ACTIVITY_KIND_RUNTIME and StringIds.
CREATE TEMP VIEW IF NOT EXISTS cuda_api_calls AS
SELECT
  -- call start and end timestamps (ns), end - start (ns)
  r.start AS start,
  r.end AS end,
  r.end - r.start AS duration,
  -- the function name, version suffix dropped
  CASE substr(ids.value, -6, 2)
    WHEN '_v' THEN substr(ids.value, 1, length(ids.value) - 6)
    ELSE ids.value
  END AS name,
  -- the function's StringIds id (one per name as CUPTI spells it)
  r.nameId AS nameId,
  -- calling thread (nsys GlobalId: pid in bits 24..47, tid in bits 0..23)
  r.globalTid AS globalTid,
  -- links the call to the GPU work it launched
  r.correlationId AS correlationId,
  -- its Python stack (CUDA_CALLCHAINS id, python_call_sites), NULL without one
  r.callchainId AS callchainId,
  -- the call's rowid (for scans over rowid slices)
  r.rowid AS apiRow
FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r
LEFT JOIN StringIds AS ids ON ids.id = r.nameId;
