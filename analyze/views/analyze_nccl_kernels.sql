-- analyze_nccl_kernels: every kernel of the current window with its process's rank and whether
-- it is an NCCL kernel: its base name (shortName; the demangled name when the capture has none)
-- starts with "nccl" (ncclDevKernel_AllReduce_Sum_f32_RING_LL, ncclKernel_...; case matters).
-- Rebuilt for every rule run (each run may have another window).
--   pid, rank (MPI_RANKS of any thread of the process; NULL without), deviceId, start, end (ns),
--   name (base name), isNccl (1 or 0),
--   collectiveSeq: for NCCL kernels, the kernel's place among its process's NCCL kernels of the
--     same name in start order (1, 2, ...): the n-th of a name on every rank is one collective.
DROP TABLE IF EXISTS temp.analyze_nccl_kernels;
CREATE TEMP TABLE analyze_nccl_kernels AS
WITH
  ranks AS (SELECT (globalTid >> 24) & 0xFFFFFF AS pid, min(rank) AS rank
            FROM MPI_RANKS GROUP BY 1),
  named AS (
    SELECT (k.globalPid >> 24) & 0xFFFFFF AS pid, k.deviceId, k.start, k.end,
           coalesce(short.value, demangled.value) AS name
    FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
    LEFT JOIN StringIds AS short ON short.id = k.shortName
    LEFT JOIN StringIds AS demangled ON demangled.id = k.demangledName
    WHERE k.start > 0
  ),
  classified AS (
    SELECT named.*, CAST(substr(name, 1, 4) = 'nccl' AS INTEGER) AS isNccl FROM named
  )
SELECT classified.pid, ranks.rank, deviceId, start, end, name, isNccl,
       CASE WHEN isNccl = 1 THEN
         row_number() OVER (PARTITION BY classified.pid, isNccl, name ORDER BY start, end)
       END AS collectiveSeq
FROM classified LEFT JOIN ranks ON ranks.pid = classified.pid;
CREATE INDEX temp.analyze_nccl_kernels_by_device
  ON analyze_nccl_kernels (pid, deviceId, isNccl, start);
