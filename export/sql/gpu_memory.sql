-- Device memory allocated on each GPU after every allocation and free (memKind 2, Device), in
-- (device, start, row) order: the running sum of allocations minus frees, in bytes.
SELECT deviceId, start,
  sum(CASE memoryOperationType WHEN 0 THEN bytes ELSE -bytes END)
    OVER (PARTITION BY deviceId ORDER BY start, rowid ROWS UNBOUNDED PRECEDING)
FROM CUDA_GPU_MEMORY_USAGE_EVENTS
WHERE memKind = 2
ORDER BY deviceId, start, rowid;
