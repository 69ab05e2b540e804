-- The CUDA contexts of each process.
CREATE TABLE TARGET_INFO_CUDA_CONTEXT_INFO (
    nullStreamId                INTEGER NOT NULL,
    hwId                        INTEGER NOT NULL,
    vmId                        INTEGER NOT NULL,
    processId                   INTEGER NOT NULL,
    deviceId                    INTEGER NOT NULL,
    contextId                   INTEGER NOT NULL,
    parentContextId             INTEGER,
    isGreenContext              INTEGER
);
