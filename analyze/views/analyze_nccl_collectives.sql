-- analyze_nccl_collectives: one row per collective seen on two or more ranks, matched by order
-- (the n-th NCCL kernel of one name in each process, analyze_nccl_kernels.collectiveSeq):
--   name, collectiveSeq, ranks (processes that ran it), skew (latest start - earliest start,
--   ns), lastPid, lastRank (the process that started it last, lowest pid on a tie; NULL when
--   all started together: nobody was last).
CREATE TEMP VIEW IF NOT EXISTS analyze_nccl_collectives AS
WITH
  instances AS (
    SELECT name, collectiveSeq, pid, rank, min(start) AS start
    FROM analyze_nccl_kernels WHERE isNccl = 1 GROUP BY name, collectiveSeq, pid
  ),
  ranked AS (
    SELECT instances.*,
           count(*) OVER (PARTITION BY name, collectiveSeq) AS ranks,
           max(start) OVER (PARTITION BY name, collectiveSeq)
             - min(start) OVER (PARTITION BY name, collectiveSeq) AS skew,
           row_number() OVER (PARTITION BY name, collectiveSeq ORDER BY start DESC, pid)
             AS arrival
    FROM instances
  )
SELECT name, collectiveSeq, ranks, skew,
       CASE WHEN skew > 0 THEN pid END AS lastPid, CASE WHEN skew > 0 THEN rank END AS lastRank
FROM ranked WHERE arrival = 1 AND ranks >= 2;
