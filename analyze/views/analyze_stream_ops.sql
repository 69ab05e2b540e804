-- analyze_stream_ops: every GPU operation of the current window (kernels, copies, sets) with the
-- CUDA call that launched it, as a TEMP table indexed for the per-device lookups of idle_class
-- and gap_cause. Rebuilt for every rule run (each run may have another window).
--   start, end (GPU, ns), pid, deviceId, streamId, kind ('kernel', 'copy', 'set')
--   launchStart, launchTid: start (ns) and globalTid of the launching call (NULL when the report
--     lacks it; correlation ids are per process)
-- Operations without a start (0) are left out, as nsys's GPU rules do.
DROP TABLE IF EXISTS temp.analyze_stream_ops;
CREATE TEMP TABLE analyze_stream_ops AS
WITH
  operations AS (
    SELECT start, end, globalPid, deviceId, streamId, correlationId, 'kernel' AS kind
    FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start > 0
    UNION ALL
    SELECT start, end, globalPid, deviceId, streamId, correlationId, 'copy'
    FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE start > 0
    UNION ALL
    SELECT start, end, globalPid, deviceId, streamId, correlationId, 'set'
    FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE start > 0
  )
SELECT op.start, op.end, (op.globalPid >> 24) & 0xFFFFFF AS pid, op.deviceId, op.streamId,
       op.kind, call.start AS launchStart, call.globalTid AS launchTid
FROM operations AS op
LEFT JOIN main.CUPTI_ACTIVITY_KIND_RUNTIME AS call  -- main.: a call may precede the window
  ON call.correlationId = op.correlationId AND call.globalTid >> 24 = op.globalPid >> 24;
CREATE INDEX temp.analyze_stream_ops_by_device ON analyze_stream_ops (pid, deviceId, end);
