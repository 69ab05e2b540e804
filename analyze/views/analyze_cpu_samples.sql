-- analyze_cpu_samples: every CPU sample of the report (COMPOSITE_EVENTS) with the function it was
-- taken in (its leaf frame, SAMPLING_CALLCHAINS stackDepth 0), as a TEMP table indexed by time
-- for the per-span lookups of analyze_span_samples. Not windowed: the spans are
-- (analyze_cpu_spans). Rebuilt for every rule run.
--   start (ns), globalTid
--   function: a native frame's name (an unresolved one's hex address), a Python frame's
--     (unwindMethod 1001: originalIP is the line) as 'function (file:line)'; '[no stack]' for a
--     sample without frames
DROP TABLE IF EXISTS temp.analyze_cpu_samples;
CREATE TEMP TABLE analyze_cpu_samples AS
SELECT sample.start, sample.globalTid,
       CASE
         WHEN leaf.id IS NULL THEN '[no stack]'
         WHEN leaf.unwindMethod = 1001
           THEN coalesce(symbol.value, '?') || ' (' || coalesce(module.value, '?') || ':'
                || leaf.originalIP || ')'
         ELSE coalesce(symbol.value, '?')
       END AS function
FROM COMPOSITE_EVENTS AS sample
LEFT JOIN SAMPLING_CALLCHAINS AS leaf ON leaf.id = sample.id AND leaf.stackDepth = 0
LEFT JOIN StringIds AS symbol ON symbol.id = leaf.symbol
LEFT JOIN StringIds AS module ON module.id = leaf.module;
CREATE INDEX temp.analyze_cpu_samples_by_time ON analyze_cpu_samples (start);
