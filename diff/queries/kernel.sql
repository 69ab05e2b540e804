-- Diff items of kind kernel: one row per kernel, keyed by the name the cuda_kernels view selects
-- (demangled by default; `base` or `mangled` in report_options), or with the diff option
-- kernel_key = 'name+grid+block' by that name and the launch's grid and block dimensions.
-- Durations are GPU execution times (end - start), ns.
WITH
  by_launch AS (
    SELECT EXISTS (
      SELECT 1 FROM diff_options WHERE name = 'kernel_key' AND value = 'name+grid+block'
    ) AS enabled
  ),
  keyed AS (
    SELECT
      CASE
        WHEN by_launch.enabled THEN coalesce(k.name, '') || printf(' [grid %d,%d,%d block %d,%d,%d]',
          k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ)
        ELSE coalesce(k.name, '')
      END AS name,
      k.end - k.start AS duration
    FROM cuda_kernels AS k
    CROSS JOIN by_launch
  )
SELECT
  -- the item's name
  name,
  -- kernels of that key
  count(*) AS instances,
  -- summed and median duration (ns)
  sum(duration) AS total,
  median(duration) AS median
FROM keyed
GROUP BY name;
