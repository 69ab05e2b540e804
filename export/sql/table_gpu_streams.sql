-- The (device, process, stream) triples that have GPU operations in $TABLE.
SELECT DISTINCT deviceId, (globalPid >> 24) & 0xFFFFFF AS pid, streamId FROM $TABLE;
