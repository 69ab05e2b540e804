-- Names of CUDA_GPU_MEMORY_USAGE_EVENTS.memoryOperationType values.
CREATE TABLE ENUM_CUDA_DEV_MEM_EVENT_OPER (
    id                          INTEGER NOT NULL PRIMARY KEY,
    name                        TEXT,
    label                       TEXT
);
