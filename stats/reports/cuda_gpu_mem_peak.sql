-- cuda_gpu_mem_peak: CUDA GPU Memory Peak. prof's own report: nsys 2025.3 has no memory-usage report.
-- Device memory (memKind Device) of CUDA_GPU_MEMORY_USAGE_EVENTS, written with
-- `prof profile --cuda-memory-usage=true`: per device, the most bytes allocated at once, the first
-- moment that amount was reached, and one row per allocation alive at that moment, largest first
-- (ties by allocation time). Allocations minus frees are summed in (start, row) order, so an
-- allocation and a free at the same ns count in the order CUPTI reported them. Sizes in bytes,
-- times in ns since the session start. Devices whose running total never rises above 0 (a capture
-- that saw only frees) have no rows.
WITH
  events AS (
    SELECT
      deviceId,
      globalPid,
      address,
      bytes,
      start,
      correlationId,
      memoryOperationType AS operation,
      row_number() OVER (PARTITION BY deviceId ORDER BY start, rowid) AS seq,
      sum(CASE memoryOperationType WHEN 0 THEN bytes ELSE -bytes END)
        OVER (PARTITION BY deviceId ORDER BY start, rowid ROWS UNBOUNDED PRECEDING) AS allocated
    FROM CUDA_GPU_MEMORY_USAGE_EVENTS
    WHERE memKind = 2
  ),
  peaks AS (
    SELECT deviceId, max(allocated) AS peak FROM events GROUP BY deviceId HAVING max(allocated) > 0
  ),
  peak_events AS (
    SELECT e.deviceId, p.peak, min(e.seq) AS seq
    FROM events e JOIN peaks p ON p.deviceId = e.deviceId AND e.allocated = p.peak
    GROUP BY e.deviceId
  ),
  peak_moments AS (
    SELECT pe.deviceId, pe.peak, pe.seq, e.start
    FROM peak_events pe JOIN events e ON e.deviceId = pe.deviceId AND e.seq = pe.seq
  ),
  -- An address is not handed out again before it is freed: an allocation is alive at the peak
  -- when no free of its address (same process and device) comes between it and the peak.
  alive AS (
    SELECT m.deviceId, m.peak, m.start AS peak_start, a.start, a.bytes, a.address, a.correlationId,
           a.globalPid
    FROM peak_moments m
    JOIN events a ON a.deviceId = m.deviceId AND a.operation = 0 AND a.seq <= m.seq
    WHERE NOT EXISTS (
      SELECT 1 FROM events f
      WHERE f.deviceId = a.deviceId AND f.globalPid = a.globalPid AND f.address = a.address
        AND f.operation = 1 AND f.seq > a.seq AND f.seq <= m.seq
    )
  )
SELECT
  -- CUDA device id
  deviceId AS "Device",
  -- device memory allocated at the peak (B)
  peak AS "Peak (B)",
  -- when the peak was first reached (ns since the session start)
  peak_start AS "Peak Time (ns)",
  -- number of allocations alive at the peak
  count(*) OVER (PARTITION BY deviceId) AS "Alive",
  -- size of this allocation (B)
  bytes AS "Size (B)",
  -- when it was allocated (ns since the session start)
  start AS "Alloc Time (ns)",
  -- its virtual address, in hex
  printf('0x%x', address) AS "Address",
  -- correlation id of the API call that allocated it (CUPTI_ACTIVITY_KIND_RUNTIME)
  correlationId AS "CorrId",
  -- process that allocated it
  (globalPid >> 24) & 16777215 AS "Pid"
FROM alive
ORDER BY deviceId, bytes DESC, start;
