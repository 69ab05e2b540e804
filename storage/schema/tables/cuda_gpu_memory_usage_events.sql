-- GPU memory allocations and frees (--cuda-memory-usage=true): one row per operation.
CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (
    start                       INTEGER   NOT NULL,
    globalPid                   INTEGER   NOT NULL,
    deviceId                    INTEGER   NOT NULL,
    contextId                   INTEGER   NOT NULL,
    address                     INTEGER   NOT NULL,
    pc                          INTEGER   NOT NULL,
    bytes                       INTEGER   NOT NULL,
    memKind                     INTEGER   NOT NULL,
    memoryOperationType         INTEGER   NOT NULL,
    name                        TEXT,
    correlationId               INTEGER,
    streamId                    INTEGER,
    localMemoryPoolAddress      INTEGER,
    localMemoryPoolReleaseThreshold   INTEGER,
    localMemoryPoolSize         INTEGER,
    localMemoryPoolUtilizedSize   INTEGER,
    importedMemoryPoolAddress   INTEGER,
    importedMemoryPoolProcessId   INTEGER
);
