-- sync_hotspots: where the host waits for the GPU. Synchronizing calls (analyze_sync_calls:
-- stream, device and event syncs, synchronous copies, async copies on pageable memory) grouped by
-- thread, innermost enclosing push/pop NVTX range of that thread (analyze_thread_ranges),
-- function and, in reports with Python stacks (--python-backtrace=cuda), the program's line that
-- made the call (python_call_sites). Times in ns. Most host time first (ties by PID, TID, range,
-- name, line), rows= rows.
-- A range that holds a call starts at most the longest range's length before it: that bounds the
-- index search per call.
WITH
  located AS (
    SELECT sync.*,
           (SELECT range.eventRow FROM analyze_thread_ranges AS range
            WHERE range.globalTid = sync.globalTid AND range.start <= sync.start
              AND range.start >= sync.start - (SELECT max(end - start) FROM analyze_thread_ranges)
              AND range.end >= sync.end
            ORDER BY range.start DESC, range.end
            LIMIT 1) AS rangeRow
    FROM analyze_sync_calls AS sync
  )
SELECT
  sum(located.end - located.start) AS "Host Time (ns)",           -- time blocked in the calls
  count(*) AS "Calls",
  round(avg(located.end - located.start), 1) AS "Avg (ns)",
  max(located.end - located.start) AS "Max (ns)",
  count(DISTINCT located.rangeRow) AS "Range Instances",          -- enclosing range instances
  (located.globalTid >> 24) & 0xFFFFFF AS "PID",
  located.globalTid & 0xFFFFFF AS "TID",
  coalesce(range.name, '') AS "NVTX Range",                      -- empty outside every range
  located.kind AS "Kind",
  located.name AS "API Name",
  coalesce(site.site, '') AS "Python Line"                       -- empty without a Python stack
FROM located
LEFT JOIN analyze_thread_ranges AS range ON range.eventRow = located.rangeRow
LEFT JOIN python_call_sites AS site ON site.callchainId = located.callchainId
GROUP BY located.globalTid, range.name, located.name, site.site
ORDER BY 1 DESC, 6, 7, 8, 10, 11
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
