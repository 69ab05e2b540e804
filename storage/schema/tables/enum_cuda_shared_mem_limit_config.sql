-- Names of CUPTI_ACTIVITY_KIND_KERNEL.sharedMemoryLimitConfig values.
CREATE TABLE ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG (
    id                          INTEGER NOT NULL PRIMARY KEY,
    name                        TEXT,
    label                       TEXT
);
