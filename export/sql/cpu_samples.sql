-- CPU samples with their stacks, one row per frame, outermost frame first; a sample without a
-- stack is one row with NULL frame columns. Columns: id, start, cpu, globalTid, symbol text,
-- module text, unwindMethod, originalIP, unresolved. Samples in start order (ties by id).
SELECT
  ce.id,
  ce.start,
  ce.cpu,
  ce.globalTid,
  sym.value,
  mod.value,
  f.unwindMethod,
  f.originalIP,
  f.unresolved
FROM COMPOSITE_EVENTS AS ce
LEFT JOIN SAMPLING_CALLCHAINS AS f ON f.id = ce.id
LEFT JOIN StringIds AS sym ON sym.id = f.symbol
LEFT JOIN StringIds AS mod ON mod.id = f.module
WHERE ce.globalTid IS NOT NULL
ORDER BY ce.start, ce.id, f.stackDepth DESC;
