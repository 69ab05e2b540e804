-- analyze_gap_causes: every idle gap of a GPU longer than analyze_gap_threshold, with what the host
-- was doing meanwhile. One row per gap (reads analyze_stream_ops, analyze_osrt_calls,
-- analyze_cuda_calls, analyze_thread_ranges, analyze_gap_threshold). Times in ns.
--   gapId (1 for the longest gap, ties by start), duration, gapStart, gapEnd, pid, deviceId
--   tid: the thread that launched the operation ending the gap, the one the GPU waited for
--     (NULL when the launching call is not in the report)
--   cause, call, callTime: what that thread did during the gap. Its OS runtime and CUDA calls that
--     overlap the gap are candidates, summed per function (a gap spent in many short reads or
--     sleeps is spent in that function); the function overlapping the gap longest is the cause
--     when it covers at least half the gap: 'OS runtime call' (e.g. poll, read,
--     pthread_cond_wait on DataLoader workers), 'CUDA synchronization' (a call with a syncKind
--     in analyze_cuda_calls) or 'CUDA API call'; call is its name, callTime its summed overlap
--     with the gap. Otherwise the cause is 'host code' (no traced function covers half the gap:
--     Python or other untraced work), or 'nothing traced' when the launching thread is unknown.
--   nvtxRange: the innermost push/pop range of that thread around the gap's middle ('' if none)
-- A device's gaps lie between its first operation's start and last operation's end: between the
-- n-th end and the (n+1)-th start in time order, when that end comes first (as gpu_gaps).
CREATE TEMP VIEW IF NOT EXISTS analyze_gap_causes AS
WITH
  starts AS (
    SELECT ROW_NUMBER() OVER (PARTITION BY pid, deviceId ORDER BY start, end) AS n, start, pid,
           deviceId, launchTid
    FROM analyze_stream_ops
  ),
  ends AS (
    SELECT ROW_NUMBER() OVER (PARTITION BY pid, deviceId ORDER BY end) AS n, end, pid, deviceId
    FROM analyze_stream_ops
  ),
  gaps AS (
    SELECT ROW_NUMBER() OVER (ORDER BY starts.start - ends.end DESC, ends.end) AS gapId,
           starts.start - ends.end AS duration, ends.end AS gapStart, starts.start AS gapEnd,
           ends.pid, ends.deviceId, starts.launchTid AS tid
    FROM starts
    JOIN ends ON ends.n = starts.n - 1 AND ends.pid = starts.pid AND ends.deviceId = starts.deviceId
    WHERE starts.start - ends.end > (SELECT ns FROM analyze_gap_threshold)
  ),
  -- Calls that overlap a gap start inside it or at most the longest call's length before it,
  -- which bounds the index range searched per gap.
  longest AS (
    SELECT (SELECT coalesce(max(end - start), 0) FROM analyze_osrt_calls) AS osrt,
           (SELECT coalesce(max(end - start), 0) FROM analyze_cuda_calls) AS cuda
  ),
  candidates AS (
    SELECT gaps.gapId, 'OS runtime call' AS cause, osrt.name AS call,
           min(osrt.end, gaps.gapEnd) - max(osrt.start, gaps.gapStart) AS overlap
    FROM gaps
    JOIN analyze_osrt_calls AS osrt
      ON osrt.globalTid = gaps.tid AND osrt.start < gaps.gapEnd
     AND osrt.start >= gaps.gapStart - (SELECT osrt FROM longest) AND osrt.end > gaps.gapStart
    UNION ALL
    SELECT gaps.gapId,
           CASE WHEN api.syncKind IS NULL THEN 'CUDA API call' ELSE 'CUDA synchronization' END,
           api.name, min(api.end, gaps.gapEnd) - max(api.start, gaps.gapStart)
    FROM gaps
    JOIN analyze_cuda_calls AS api
      ON api.globalTid = gaps.tid AND api.start < gaps.gapEnd
     AND api.start >= gaps.gapStart - (SELECT cuda FROM longest) AND api.end > gaps.gapStart
  ),
  per_function AS (
    SELECT gapId, cause, call, sum(overlap) AS overlap FROM candidates GROUP BY gapId, cause, call
  ),
  ranked AS (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY gapId ORDER BY overlap DESC, cause, call) AS rank
    FROM per_function
  )
SELECT
  gaps.gapId, gaps.duration, gaps.gapStart, gaps.gapEnd, gaps.pid, gaps.deviceId, gaps.tid,
  CASE
    WHEN gaps.tid IS NULL THEN 'nothing traced'
    WHEN best.overlap * 2 >= gaps.duration THEN best.cause
    ELSE 'host code'
  END AS cause,
  CASE WHEN best.overlap * 2 >= gaps.duration THEN best.call END AS call,
  CASE WHEN best.overlap * 2 >= gaps.duration THEN best.overlap END AS callTime,
  coalesce((SELECT range.name FROM analyze_thread_ranges AS range
            WHERE range.globalTid = gaps.tid
              AND range.start <= (gaps.gapStart + gaps.gapEnd) / 2
              AND range.start >= (gaps.gapStart + gaps.gapEnd) / 2
                                 - (SELECT max(end - start) FROM analyze_thread_ranges)
              AND range.end >= (gaps.gapStart + gaps.gapEnd) / 2
            ORDER BY range.start DESC, range.end
            LIMIT 1), '') AS nvtxRange
FROM gaps
LEFT JOIN ranked AS best ON best.gapId = gaps.gapId AND best.rank = 1;
