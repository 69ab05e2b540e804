-- cpu_sample_tree: CPU Sample Call Tree. prof's own: the top-down call tree of the sampled stacks
-- (COMPOSITE_EVENTS, SAMPLING_CALLCHAINS), one row per node, that is per process and path of
-- frames from the outermost one; a node's name is indented two spaces per level below the root.
-- Samples counts the samples whose stack starts with the node's path, Self those that end at it;
-- percentages are of the process's samples (after the options tid=<integer> and nvtx=<text>, see
-- the cpu_samples view), one decimal. Nodes under cutoff=<number> percent (default 1) are left
-- out, with everything below them. Processes by samples, largest first (ties by pid); within one,
-- depth first, children by Samples, largest first (ties by name). With the lines option, a Python
-- frame is a node per line it ran ("train_step:42"; a caller's line is the call's), so a
-- function's hot line and the line that called it show. Reads the cpu_samples view,
-- SAMPLING_CALLCHAINS, StringIds and PROCESSES.
WITH RECURSIVE
  options AS (
    SELECT
      coalesce(
        (SELECT CAST(value AS REAL) FROM report_options WHERE name = 'cutoff'), 1.0) AS cutoff,
      EXISTS (SELECT 1 FROM report_options WHERE name = 'lines') AS byLine
  ),
  process_samples AS (
    SELECT globalPid, pid, count(*) AS samples
    FROM cpu_samples
    GROUP BY globalPid
  ),
  -- each sample's stack as "<symbol>:<module>:<line>," per frame (StringIds ids; the line, with
  -- lines, a Python frame's SAMPLING_CALLCHAINS.originalIP of unwindMethod 1001, else empty),
  -- outermost first (the window orders the concatenation; the leaf's row stands for the sample),
  -- counted per distinct stack
  stacks AS (
    SELECT globalPid, signature, count(*) AS samples
    FROM (
      SELECT
        s.globalPid AS globalPid,
        f.stackDepth AS depth,
        group_concat(
          f.symbol || ':' || f.module || ':' ||
            CASE WHEN opt.byLine AND f.unwindMethod = 1001 AND f.originalIP > 0
              THEN f.originalIP ELSE '' END || ',', '') OVER (
          PARTITION BY f.id ORDER BY f.stackDepth DESC
          ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS signature
      FROM cpu_samples AS s
      JOIN SAMPLING_CALLCHAINS AS f ON f.id = s.id
      CROSS JOIN options AS opt
    )
    WHERE depth = 0
    GROUP BY globalPid, signature
  ),
  -- every prefix of every distinct stack: a node (path), its parent's path and its frame
  prefixes(globalPid, parent, path, rest, level, frame, samples) AS (
    SELECT globalPid, NULL, '', signature, -1, NULL, samples FROM stacks
    UNION ALL
    SELECT
      globalPid,
      path,
      path || substr(rest, 1, instr(rest, ',')),
      substr(rest, instr(rest, ',') + 1),
      level + 1,
      substr(rest, 1, instr(rest, ',') - 1),
      samples
    FROM prefixes
    WHERE rest <> ''
  ),
  -- a frame "<symbol>:<module>:<line>" split at its first colon (modulePart: "<module>:<line>")
  frames AS (
    SELECT
      globalPid,
      parent,
      path,
      level,
      CAST(substr(frame, 1, instr(frame, ':') - 1) AS INTEGER) AS symbol,
      substr(frame, instr(frame, ':') + 1) AS modulePart,
      samples,
      rest
    FROM prefixes
    WHERE level >= 0
  ),
  nodes AS (
    SELECT
      globalPid,
      parent,
      path,
      level,
      symbol,
      CAST(substr(modulePart, 1, instr(modulePart, ':') - 1) AS INTEGER) AS module,
      nullif(substr(modulePart, instr(modulePart, ':') + 1), '') AS line,
      sum(samples) AS samples,
      sum(CASE WHEN rest = '' THEN samples ELSE 0 END) AS self
    FROM frames
    GROUP BY globalPid, path
  ),
  named AS (
    SELECT n.*, sym.value || coalesce(':' || n.line, '') AS name, mod.value AS moduleName
    FROM nodes AS n
    LEFT JOIN StringIds AS sym ON sym.id = n.symbol
    LEFT JOIN StringIds AS mod ON mod.id = n.module
  ),
  -- depth-first order: each node's key is its parent's key and its own place among its siblings
  -- (samples descending, then name; char(1) ends a name so that a shorter one sorts first)
  ordered(globalPid, path, sortKey) AS (
    SELECT globalPid, path,
      printf('%015d', 999999999999999 - samples) || coalesce(name, '') || char(1)
    FROM named
    WHERE level = 0
    UNION ALL
    SELECT c.globalPid, c.path,
      o.sortKey || printf('%015d', 999999999999999 - c.samples) || coalesce(c.name, '') || char(1)
    FROM ordered AS o
    JOIN named AS c ON c.globalPid = o.globalPid AND c.parent = o.path
  )
SELECT
  -- share of the process's samples under this node (%)
  round(n.samples * 100.0 / p.samples, 1) AS "Samples (%)",
  -- samples whose stack passes through this node
  n.samples AS "Samples",
  -- samples whose stack ends at this node (taken in the function itself)
  n.self AS "Self Samples",
  -- process id and name
  p.pid AS "PID",
  (SELECT name FROM PROCESSES WHERE globalPid = p.globalPid ORDER BY rowid DESC LIMIT 1)
    AS "Process",
  -- the function (and ":line" with lines), indented two spaces per level below the outermost
  -- frame
  printf('%*s', n.level * 2, '') || coalesce(n.name, '') AS "Function",
  -- the binary's path, or the Python source file's
  n.moduleName AS "Module"
FROM named AS n
JOIN ordered AS o ON o.globalPid = n.globalPid AND o.path = n.path
JOIN process_samples AS p ON p.globalPid = n.globalPid
CROSS JOIN options AS opt
WHERE n.samples * 100.0 / p.samples >= opt.cutoff
ORDER BY p.samples DESC, p.pid, p.globalPid, o.sortKey;
