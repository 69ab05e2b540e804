-- Memory copies run on the GPU; copyKind refers to ENUM_CUDA_MEMCPY_OPER(id), srcKind and dstKind
-- to ENUM_CUDA_MEM_KIND(id).
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (
    start                       INTEGER NOT NULL,
    end                         INTEGER NOT NULL,
    deviceId                    INTEGER NOT NULL,
    contextId                   INTEGER NOT NULL,
    greenContextId              INTEGER,
    streamId                    INTEGER NOT NULL,
    correlationId               INTEGER,
    globalPid                   INTEGER,
    bytes                       INTEGER NOT NULL,
    copyKind                    INTEGER NOT NULL,
    deprecatedSrcId             INTEGER,
    srcKind                     INTEGER,
    dstKind                     INTEGER,
    srcDeviceId                 INTEGER,
    srcContextId                INTEGER,
    dstDeviceId                 INTEGER,
    dstContextId                INTEGER,
    migrationCause              INTEGER,
    graphNodeId                 INTEGER,
    virtualAddress              INTEGER,
    copyCount                   INTEGER
);
