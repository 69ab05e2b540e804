-- nccl_skew: per NCCL collective (kernel base name), how far apart the ranks reached it. The
-- n-th NCCL kernel of a name on each process is one collective (analyze_nccl_collectives); its
-- skew is the latest start minus the earliest: the time the ranks that came first waited in the
-- collective for the last one (a slow rank, data loading, stragglers). Times in ns.
-- One row per name, largest median skew first (ties by name), at most rows= rows.
WITH
  last_counts AS (
    SELECT name, lastPid, lastRank, count(*) AS times,
           row_number() OVER (PARTITION BY name ORDER BY count(*) DESC, lastPid) AS place
    FROM analyze_nccl_collectives WHERE lastPid IS NOT NULL GROUP BY name, lastPid
  ),
  per_name AS (
    SELECT name, count(*) AS collectives, max(ranks) AS ranks, median(skew) AS medSkew,
           max(skew) AS maxSkew
    FROM analyze_nccl_collectives GROUP BY name
  )
SELECT
  per_name.name AS "Collective",                         -- NCCL kernel base name
  collectives AS "Instances",                            -- collectives matched on 2+ ranks
  ranks AS "Ranks",                                      -- processes that ran them
  round(medSkew, 1) AS "Med Skew (ns)",
  maxSkew AS "Max Skew (ns)",
  last_counts.lastPid AS "Most Often Last PID",          -- empty when no rank was ever last
  last_counts.lastRank AS "Most Often Last Rank",        -- MPI_RANKS; empty without
  coalesce(last_counts.times, 0) AS "Times Last"
FROM per_name
LEFT JOIN last_counts ON last_counts.name = per_name.name AND last_counts.place = 1
ORDER BY medSkew DESC, per_name.name
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
