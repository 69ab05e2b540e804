-- View cuda_kernels: every CUPTI_ACTIVITY_KIND_KERNEL row (all of its columns, as nsys's DDL names
-- them) plus `kernelRow`, its rowid, and `name`, the kernel name the report's options select:
-- demangledName by default, shortName with option `base`, mangledName with `mangled`
-- (demangledName where the capture has no mangled name); `base` wins over `mangled`. Options are
-- read from report_options when the view is queried. Reads CUPTI_ACTIVITY_KIND_KERNEL and
-- StringIds.
CREATE TEMP VIEW IF NOT EXISTS cuda_kernels AS
WITH
  choice AS (
    SELECT
      EXISTS (SELECT 1 FROM report_options WHERE name = 'base') AS base,
      EXISTS (SELECT 1 FROM report_options WHERE name = 'mangled') AS mangled
  )
SELECT
  -- every column of the kernel record, and its rowid (a kernel's identity: a graph launch's
  -- kernels share one correlationId)
  k.*,
  k.rowid AS kernelRow,
  -- the selected kernel name
  ids.value AS name
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
CROSS JOIN choice
LEFT JOIN StringIds AS ids
  ON ids.id = CASE
    WHEN choice.base THEN k.shortName
    WHEN choice.mangled THEN coalesce(k.mangledName, k.demangledName)
    ELSE k.demangledName
  END;
