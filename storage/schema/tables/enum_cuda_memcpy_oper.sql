-- Names of CUPTI_ACTIVITY_KIND_MEMCPY.copyKind values.
CREATE TABLE ENUM_CUDA_MEMCPY_OPER (
    id                          INTEGER NOT NULL PRIMARY KEY,
    name                        TEXT,
    label                       TEXT
);
