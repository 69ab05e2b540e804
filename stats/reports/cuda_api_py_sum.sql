-- cuda_api_py_sum: CUDA API Summary by Python Line. prof's own: one row per CUDA API function and
-- line of the program's Python code that called it (python_call_sites: the innermost frame outside
-- installed packages), over the calls that carry a Python stack (prof profile
-- --python-backtrace=cuda: calls that launch work or can block). Rows by Total Time, largest first
-- (ties by name, line). Times in ns; Avg, Med and StdDev rounded to 0.1 ns. Reads the
-- cuda_api_calls and python_call_sites views.
WITH
  summary AS (
    SELECT
      call.name AS name,
      site.site AS site,
      site.file AS file,
      sum(call.duration) AS total,
      count(*) AS calls,
      avg(call.duration) AS mean,
      median(call.duration) AS middle,
      min(call.duration) AS shortest,
      max(call.duration) AS longest,
      stdev(call.duration) AS deviation
    FROM cuda_api_calls AS call
    JOIN python_call_sites AS site ON site.callchainId = call.callchainId
    GROUP BY call.nameId, site.file, site.line, site.function
  )
SELECT
  -- share of this row in the summed Total Time of all rows (%), one decimal
  round(total * 100.0 / (SELECT sum(total) FROM summary), 1) AS "Time (%)",
  -- time spent in the function from this line, summed over its calls (ns)
  total AS "Total Time (ns)",
  -- number of calls
  calls AS "Num Calls",
  -- mean, median, shortest and longest call (ns)
  round(mean, 1) AS "Avg (ns)",
  round(middle, 1) AS "Med (ns)",
  shortest AS "Min (ns)",
  longest AS "Max (ns)",
  -- sample standard deviation of the call durations (ns), 0 for a single call
  round(deviation, 1) AS "StdDev (ns)",
  -- function name, version suffix dropped
  name AS "Name",
  -- where the Python code called it: file base name, line, function
  site AS "Python Line",
  -- the file's full path
  file AS "Python File"
FROM summary
ORDER BY total DESC, name, site;
