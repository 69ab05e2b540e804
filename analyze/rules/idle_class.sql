-- idle_class: per device and stream, why the stream sat idle between its operations. Reads
-- analyze_stream_ops (the window's operations with their launching calls). Times in ns.
-- A stream's idle gap runs from the end of an operation (the latest end so far) to the start of
-- the next one. The whole gap gets one class, from the next operation's launch:
--   host wait:       the launching call started at or after the gap began: the stream ran dry
--                    and waited for the host to issue more work;
--   dependency wait: the work was issued before the gap began, and an operation of another
--                    stream of the same device ended inside the gap (after its start, at or
--                    before its end): the work waited for that stream (events, wait_stream);
--   other:           issued before the gap, no other stream finished meanwhile (launch
--                    latency, a busy device, or the launching call is not in the report).
-- Streams with the most idle time first (ties by PID, device, stream), at most rows= rows.
WITH
  ordered AS (
    SELECT op.*,
           max(op.end) OVER (PARTITION BY op.pid, op.deviceId, op.streamId
                             ORDER BY op.start, op.end
                             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS previousEnd
    FROM analyze_stream_ops AS op
  ),
  gaps AS (
    SELECT pid, deviceId, streamId, previousEnd AS gapStart, start AS gapEnd,
           start - previousEnd AS idle, launchStart
    FROM ordered
    WHERE start > previousEnd
  ),
  classified AS (
    SELECT gaps.*,
      CASE
        WHEN gaps.launchStart >= gaps.gapStart THEN 'host'
        WHEN EXISTS (SELECT 1 FROM analyze_stream_ops AS other
                     WHERE other.pid = gaps.pid AND other.deviceId = gaps.deviceId
                       AND other.end > gaps.gapStart AND other.end <= gaps.gapEnd
                       AND other.streamId <> gaps.streamId) THEN 'dependency'
        ELSE 'other'
      END AS class
    FROM gaps
  ),
  idle AS (
    SELECT pid, deviceId, streamId, sum(idle) AS idle,
           sum(CASE class WHEN 'host' THEN idle ELSE 0 END) AS host,
           sum(CASE class WHEN 'dependency' THEN idle ELSE 0 END) AS dependency,
           sum(CASE class WHEN 'other' THEN idle ELSE 0 END) AS other
    FROM classified GROUP BY pid, deviceId, streamId
  ),
  streams AS (
    SELECT pid, deviceId, streamId, count(*) AS operations, sum(end - start) AS busy
    FROM analyze_stream_ops GROUP BY pid, deviceId, streamId
  )
SELECT
  streams.pid AS "PID",
  streams.deviceId AS "Device ID",
  streams.streamId AS "Stream ID",
  streams.operations AS "Ops",
  streams.busy AS "Busy Time (ns)",                      -- summed operation durations
  coalesce(idle.idle, 0) AS "Idle Time (ns)",            -- summed gaps between operations
  coalesce(idle.host, 0) AS "Host Wait (ns)",
  coalesce(idle.dependency, 0) AS "Dependency Wait (ns)",
  coalesce(idle.other, 0) AS "Other Wait (ns)",
  round(100.0 * idle.host / idle.idle, 1) AS "Host Wait (%)"  -- of the idle time
FROM streams
LEFT JOIN idle
  ON idle.pid = streams.pid AND idle.deviceId = streams.deviceId
 AND idle.streamId = streams.streamId
ORDER BY 6 DESC, 1, 2, 3
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
