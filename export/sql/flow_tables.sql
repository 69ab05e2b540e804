-- TEMP tables that give each CUDA API call which launched GPU work one flow id. Correlation ids
-- are per process, so a launch is (pid, correlationId). Filled by gpu_launches_insert.sql (once
-- per GPU table) and flows_insert.sql; empty when the report has no CUDA data, so that the event
-- queries can always join them.
CREATE TEMP TABLE export_gpu_launches (
  pid INTEGER NOT NULL,
  correlationId INTEGER NOT NULL,
  PRIMARY KEY (pid, correlationId)
) WITHOUT ROWID;
CREATE TEMP TABLE export_flows (
  -- the flow id written to the trace: 1, 2, ... in API-call order
  flowId INTEGER PRIMARY KEY,
  pid INTEGER NOT NULL,
  correlationId INTEGER NOT NULL,
  UNIQUE (pid, correlationId)
);
