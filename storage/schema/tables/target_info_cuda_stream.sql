-- The CUDA streams of each process; flag refers to ENUM_CUPTI_STREAM_TYPE(id).
CREATE TABLE TARGET_INFO_CUDA_STREAM (
    streamId                    INTEGER NOT NULL,
    hwId                        INTEGER NOT NULL,
    vmId                        INTEGER NOT NULL,
    processId                   INTEGER NOT NULL,
    contextId                   INTEGER NOT NULL,
    priority                    INTEGER NOT NULL,
    flag                        INTEGER NOT NULL
);
