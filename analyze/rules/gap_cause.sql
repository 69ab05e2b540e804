-- gap_cause: every GPU idle gap longer than gap= us (default: 5% of the median steady-state step,
-- else 100 us), with what the thread the GPU waited for was doing meanwhile
-- (analyze_gap_causes defines the gaps, the thread and the causes). Times in ns. Longest first
-- (ties by start), at most rows= rows.
SELECT
  gapId AS "Row#",
  duration AS "Duration (ns)",              -- idle time of the device
  gapStart AS "Start (ns)",                 -- end of the operation before the gap
  pid AS "PID",
  deviceId AS "Device ID",
  tid & 0xFFFFFF AS "TID",                  -- launching thread; empty when unknown
  cause AS "Cause",
  call AS "Call",                           -- the call behind the cause; empty for host code
  callTime AS "Call Time (ns)",             -- that call's overlap with the gap
  nvtxRange AS "NVTX Range"                 -- innermost range of the thread at the gap's middle
FROM analyze_gap_causes
ORDER BY gapId
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
