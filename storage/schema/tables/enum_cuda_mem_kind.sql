-- Names of CUPTI_ACTIVITY_KIND_MEMCPY.srcKind/dstKind and CUPTI_ACTIVITY_KIND_MEMSET.memKind values.
CREATE TABLE ENUM_CUDA_MEM_KIND (
    id                          INTEGER NOT NULL PRIMARY KEY,
    name                        TEXT,
    label                       TEXT
);
