-- analyze_span_samples: the CPU samples (analyze_cpu_samples) taken in each span of
-- analyze_cpu_spans (span start <= sample < span end) on a thread the span covers. One row per
-- span and sample: spanId, start (ns), globalTid, function.
CREATE TEMP VIEW IF NOT EXISTS analyze_span_samples AS
SELECT span.spanId, sample.start, sample.globalTid, sample.function
FROM analyze_cpu_spans AS span
JOIN analyze_cpu_samples AS sample ON sample.start >= span.start AND sample.start < span.end
WHERE (span.pid IS NULL OR (sample.globalTid >> 24) & 0xFFFFFF = span.pid)
  AND (span.onlyTid IS NULL OR sample.globalTid = span.onlyTid);
