-- Memory sets run on the GPU; memKind refers to ENUM_CUDA_MEM_KIND(id).
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (
    start                       INTEGER NOT NULL,
    end                         INTEGER NOT NULL,
    deviceId                    INTEGER NOT NULL,
    contextId                   INTEGER NOT NULL,
    greenContextId              INTEGER,
    streamId                    INTEGER NOT NULL,
    correlationId               INTEGER,
    globalPid                   INTEGER,
    value                       INTEGER NOT NULL,
    bytes                       INTEGER NOT NULL,
    graphNodeId                 INTEGER,
    memKind                     INTEGER
);
