-- analyze_cuda_calls: every CUDA call of the current window (cuda_api_calls, names without the
-- version suffix) and whether it blocks the calling thread until GPU work is done, as a TEMP table
-- indexed by thread and start. Rebuilt for every rule run (each run may have another window).
--   start, end (ns), globalTid, name, callchainId (its Python stack, NULL without one)
--   syncKind (NULL for a call that does not wait for the GPU):
--     'stream sync' (cudaStreamSynchronize, cuStreamSynchronize), 'device sync'
--     (cudaDeviceSynchronize, cuCtxSynchronize), 'event sync' (cudaEventSynchronize,
--     cuEventSynchronize), 'sync copy' (a cudaMemcpy* call without Async, except host-to-device
--     copies of 64 KiB or less, which return once staged), 'pageable async copy' (a
--     cudaMemcpy*Async call on pageable host memory, which the driver runs synchronously: what
--     PyTorch's .item(), .cpu() and print(tensor) do besides a stream sync).
DROP TABLE IF EXISTS temp.analyze_cuda_calls;
CREATE TEMP TABLE analyze_cuda_calls AS
SELECT call.start, call.end, call.globalTid, call.name, call.callchainId,
  CASE
    WHEN call.name LIKE 'cudaStreamSynchronize%' OR call.name LIKE 'cuStreamSynchronize%'
      THEN 'stream sync'
    WHEN call.name LIKE 'cudaDeviceSynchronize%' OR call.name LIKE 'cuCtxSynchronize%'
      THEN 'device sync'
    WHEN call.name LIKE 'cudaEventSynchronize%' OR call.name LIKE 'cuEventSynchronize%'
      THEN 'event sync'
    WHEN call.name LIKE 'cudaMemcpy%' AND call.name NOT LIKE '%Async%'
         AND NOT (copy.copyKind = 1 AND copy.bytes <= 65536)
      THEN 'sync copy'
    WHEN call.name LIKE 'cudaMemcpy%Async%' AND (copy.srcKind = 0 OR copy.dstKind = 0)
      THEN 'pageable async copy'
  END AS syncKind
FROM cuda_api_calls AS call
LEFT JOIN CUPTI_ACTIVITY_KIND_MEMCPY AS copy
  ON copy.correlationId = call.correlationId AND copy.globalPid >> 24 = call.globalTid >> 24;
CREATE INDEX temp.analyze_cuda_calls_by_thread ON analyze_cuda_calls (globalTid, start);
