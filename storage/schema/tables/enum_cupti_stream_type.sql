-- Names of TARGET_INFO_CUDA_STREAM.flag values.
CREATE TABLE ENUM_CUPTI_STREAM_TYPE (
    id                          INTEGER NOT NULL PRIMARY KEY,
    name                        TEXT,
    label                       TEXT
);
