-- Diff item of kind gpu_span: one row, "all devices", from the start of the first GPU operation
-- (kernel, copy or memset, any device) to the end of the last, ns. No row without GPU operations.
WITH
  ops AS (
    SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL
    UNION ALL
    SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY
    UNION ALL
    SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET
  )
SELECT
  -- the item's name
  'all devices' AS name,
  -- GPU operations
  count(*) AS instances,
  -- last end - first start (ns); no median
  max(end) - min(start) AS total,
  NULL AS median
FROM ops
HAVING count(*) > 0;
