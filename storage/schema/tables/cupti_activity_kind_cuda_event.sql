-- cudaEventRecord calls reaching the GPU.
CREATE TABLE CUPTI_ACTIVITY_KIND_CUDA_EVENT (
    deviceId                    INTEGER NOT NULL,
    contextId                   INTEGER NOT NULL,
    greenContextId              INTEGER,
    streamId                    INTEGER NOT NULL,
    correlationId               INTEGER,
    globalPid                   INTEGER,
    eventId                     INTEGER NOT NULL,
    eventSyncId                 INTEGER
);
