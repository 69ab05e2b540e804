-- Every whole-graph launch (one row per cudaGraphLaunch when graphs are traced as a whole), in
-- start order, named "[CUDA graph <graphId>]". Times in ns.
SELECT g.start, g.end, '[CUDA graph ' || g.graphId || ']', g.deviceId,
  (g.globalPid >> 24) & 0xFFFFFF, g.streamId, g.correlationId, f.flowId, g.graphExecId
FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE AS g
LEFT JOIN export_flows AS f
  ON f.pid = (g.globalPid >> 24) & 0xFFFFFF AND f.correlationId = g.correlationId
ORDER BY g.start, g.end DESC;
