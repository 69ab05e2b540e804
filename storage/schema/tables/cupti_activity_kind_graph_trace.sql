-- Whole CUDA graph launches run on the GPU.
CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (
    start                       INTEGER NOT NULL,
    end                         INTEGER NOT NULL,
    deviceId                    INTEGER NOT NULL,
    contextId                   INTEGER NOT NULL,
    greenContextId              INTEGER,
    streamId                    INTEGER NOT NULL,
    correlationId               INTEGER,
    globalPid                   INTEGER,
    graphId                     INTEGER NOT NULL,
    graphExecId                 INTEGER NOT NULL
);
