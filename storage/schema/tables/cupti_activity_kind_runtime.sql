-- CUDA runtime and driver API calls; eventClass refers to ENUM_NSYS_EVENT_CLASS(id) (0 runtime,
-- 1 driver), nameId to StringIds(id); callchainId to CUDA_CALLCHAINS(id): the Python stack of the
-- call with --python-backtrace=cuda, NULL otherwise.
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
    start                       INTEGER NOT NULL,
    end                         INTEGER NOT NULL,
    eventClass                  INTEGER NOT NULL,
    globalTid                   INTEGER,
    correlationId               INTEGER,
    nameId                      INTEGER NOT NULL,
    returnValue                 INTEGER NOT NULL,
    callchainId                 INTEGER
);
