-- Names of CUPTI_ACTIVITY_KIND_KERNEL.cacheConfig values.
CREATE TABLE ENUM_CUDA_FUNC_CACHE_CONFIG (
    id                          INTEGER NOT NULL PRIMARY KEY,
    name                        TEXT,
    label                       TEXT
);
