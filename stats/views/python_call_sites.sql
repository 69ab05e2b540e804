-- View python_call_sites: for every Python stack in CUDA_CALLCHAINS (prof profile
-- --python-backtrace=cuda), the frame that says where the program made the call: the innermost frame
-- outside installed packages and the standard library (paths with /site-packages/, /dist-packages/,
-- /lib/python3.N/, or <frozen ...>), else the innermost frame. Reads CUDA_CALLCHAINS (symbol: the
-- function, module: the file, originalIP: the line) and StringIds.
--   callchainId, file, line, function, site ("train.py:42 step": file's base name, line, function)
CREATE TEMP VIEW IF NOT EXISTS python_call_sites AS
WITH
  frames AS (
    SELECT
      chain.id AS callchainId,
      chain.stackDepth AS depth,
      chain.originalIP AS line,
      symbol.value AS function,
      module.value AS file,
      (module.value LIKE '%/site-packages/%' OR module.value LIKE '%/dist-packages/%'
       OR module.value GLOB '*/lib/python3.[0-9]*/*' OR module.value LIKE '<%') AS library
    FROM CUDA_CALLCHAINS AS chain
    JOIN StringIds AS symbol ON symbol.id = chain.symbol
    JOIN StringIds AS module ON module.id = chain.module
  ),
  chosen AS (
    SELECT callchainId,
           coalesce(min(CASE WHEN NOT library THEN depth END), min(depth)) AS depth
    FROM frames
    GROUP BY callchainId
  )
SELECT
  frames.callchainId AS callchainId,
  frames.file AS file,
  frames.line AS line,
  frames.function AS function,
  -- the file's base name: what follows its last '/'
  replace(frames.file, rtrim(frames.file, replace(frames.file, '/', '')), '') || ':' || frames.line
    || ' ' || frames.function AS site
FROM chosen
JOIN frames ON frames.callchainId = chosen.callchainId AND frames.depth = chosen.depth;
