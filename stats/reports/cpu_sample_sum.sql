-- cpu_sample_sum: CPU Sample Summary. prof's own: the functions of the sampled call stacks
-- (COMPOSITE_EVENTS, SAMPLING_CALLCHAINS), one row per process and function (symbol and module: a
-- native function and its binary, or a Python function and its source file). Self counts the
-- samples whose innermost frame is the function, Total those with the function anywhere on the
-- stack, once per sample however often it recurses; percentages are of the process's samples
-- (after the options tid=<integer> and nvtx=<text>, see the cpu_samples view), one decimal. Rows by
-- Self Samples, largest first (ties by Total Samples, pid, function, module). With the lines
-- option, one row per Python function and line (the line its frame ran: "train_step:42"), so
-- the hot line of a function shows. Reads the cpu_samples view, SAMPLING_CALLCHAINS, StringIds
-- and PROCESSES.
WITH
  options AS (
    SELECT EXISTS (SELECT 1 FROM report_options WHERE name = 'lines') AS byLine
  ),
  process_samples AS (
    SELECT globalPid, pid, count(*) AS samples
    FROM cpu_samples
    GROUP BY globalPid
  ),
  functions AS (
    SELECT
      s.globalPid AS globalPid,
      f.symbol AS symbol,
      f.module AS module,
      -- a Python frame's line (SAMPLING_CALLCHAINS.originalIP of unwindMethod 1001), with lines
      CASE WHEN opt.byLine AND f.unwindMethod = 1001 AND f.originalIP > 0 THEN f.originalIP END
        AS line,
      sum(f.stackDepth = 0) AS self,
      count(DISTINCT f.id) AS total
    FROM cpu_samples AS s
    JOIN SAMPLING_CALLCHAINS AS f ON f.id = s.id
    CROSS JOIN options AS opt
    GROUP BY s.globalPid, f.symbol, f.module, line
  )
SELECT
  -- share of the process's samples taken in the function itself (%)
  round(fn.self * 100.0 / p.samples, 1) AS "Self (%)",
  -- samples whose innermost frame is the function
  fn.self AS "Self Samples",
  -- share of the process's samples with the function on the stack (%)
  round(fn.total * 100.0 / p.samples, 1) AS "Total (%)",
  -- samples with the function anywhere on the stack, each sample once
  fn.total AS "Total Samples",
  -- process id and name
  p.pid AS "PID",
  (SELECT name FROM PROCESSES WHERE globalPid = p.globalPid ORDER BY rowid DESC LIMIT 1)
    AS "Process",
  -- function name (a Python frame's qualified name, and ":line" with lines; an unresolved
  -- address in hex)
  sym.value || coalesce(':' || fn.line, '') AS "Function",
  -- the binary's path, or the Python source file's
  mod.value AS "Module"
FROM functions AS fn
JOIN process_samples AS p ON p.globalPid = fn.globalPid
LEFT JOIN StringIds AS sym ON sym.id = fn.symbol
LEFT JOIN StringIds AS mod ON mod.id = fn.module
ORDER BY fn.self DESC, fn.total DESC, p.pid, sym.value, mod.value, fn.line;
