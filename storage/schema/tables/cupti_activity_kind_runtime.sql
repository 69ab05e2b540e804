-- CUDA runtime and driver API calls; eventClass refers to ENUM_NSYS_EVENT_CLASS(id) (0 runtime,
-- 1 driver), nameId to StringIds(id); callchainId is NULL (no backtraces).
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
