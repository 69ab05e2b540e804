-- View nvtx_range_gpu_ops: every pair of an NVTX range (view nvtx_ranges) and a GPU operation
-- (kernel, memcpy, memset) whose CUDA API call lies wholly inside the range ([start, end]) on the
-- range's thread, as nsys decides that a range "contains" an operation; an operation inside nested
-- ranges pairs with each of them. Shared by the nvtx_gpu_proj_ranges view and nvtx_kern_sum.
-- Times in ns. Reads nvtx_ranges, CUPTI_ACTIVITY_KIND_RUNTIME and CUPTI_ACTIVITY_KIND_KERNEL /
-- _MEMCPY / _MEMSET (missing ones are empty stand-ins).
--
-- Cost, for n API calls / GPU ops and r ranges: the op-to-call join is a lookup by correlation id
-- (SQLite builds an automatic index: O(n log n)); each range then reads only the calls of its
-- thread that start inside it through the index on (globalTid, apiStart): O(r log n + m), m the
-- number of pairs (n times the push/pop depth). The TEMP table is built once per connection.

-- Every GPU operation (its rowid is the op's id) with the thread and times of the API call that
-- started it; kernelRow is the kernel's rowid, NULL for memcpys and memsets. Correlation ids are
-- unique per process only, hence the process match.
CREATE TEMP TABLE IF NOT EXISTS nvtx_gpu_ops AS
SELECT api.globalTid AS globalTid, api.start AS apiStart, api.end AS apiEnd, ops.start AS start,
       ops.end AS end, ops.kernelRow AS kernelRow
FROM (
  SELECT rowid AS kernelRow, correlationId, globalPid, start, end FROM CUPTI_ACTIVITY_KIND_KERNEL
  UNION ALL
  SELECT NULL, correlationId, globalPid, start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY
  UNION ALL
  SELECT NULL, correlationId, globalPid, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET
) AS ops
JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS api
  ON api.correlationId = ops.correlationId
  AND (api.globalTid & 0xFFFFFFFFFF000000) = ops.globalPid;

CREATE INDEX IF NOT EXISTS temp.nvtx_gpu_ops_by_call ON nvtx_gpu_ops (globalTid, apiStart);

CREATE TEMP VIEW IF NOT EXISTS nvtx_range_gpu_ops AS
SELECT
  -- the range: its nvtx_ranges eventRow, "<domain>:<name>", PushPop or StartEnd
  r.eventRow AS eventRow,
  r.name AS name,
  r.style AS style,
  -- the operation: its nvtx_gpu_ops rowid, the kernel's rowid (NULL for memory operations), the
  -- calling thread, start and end (ns)
  o.rowid AS opRow,
  o.kernelRow AS kernelRow,
  o.globalTid AS globalTid,
  o.start AS start,
  o.end AS end
FROM nvtx_ranges AS r
JOIN nvtx_gpu_ops AS o
  ON o.globalTid = r.globalTid AND o.apiStart >= r.start AND o.apiStart <= r.end
  AND o.apiEnd <= r.end;
