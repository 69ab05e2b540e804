-- Names of CUPTI_ACTIVITY_KIND_KERNEL.launchType values.
CREATE TABLE ENUM_CUDA_KERNEL_LAUNCH_TYPE (
    id                          INTEGER NOT NULL PRIMARY KEY,
    name                        TEXT,
    label                       TEXT
);
