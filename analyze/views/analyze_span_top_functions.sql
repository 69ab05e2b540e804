-- analyze_span_top_functions: per span of analyze_cpu_spans and thread, its first functions=
-- functions by self samples, most first, as '<self samples> <function>; ...'.
--   spanId, globalTid, functions
CREATE TEMP VIEW IF NOT EXISTS analyze_span_top_functions AS
SELECT spanId, globalTid, group_concat(samples || ' ' || function, '; ') AS functions
FROM (SELECT * FROM analyze_span_functions
      WHERE rank <= (SELECT value FROM rule_options WHERE name = 'functions')
      ORDER BY spanId, globalTid, rank)
GROUP BY spanId, globalTid;
