-- OS runtime (libc/pthread) calls; eventClass refers to ENUM_NSYS_EVENT_CLASS(id), nameId to
-- StringIds(id); callchainId is 0 (no backtraces).
CREATE TABLE OSRT_API (
    start                       INTEGER NOT NULL,
    end                         INTEGER NOT NULL,
    eventClass                  INTEGER NOT NULL,
    globalTid                   INTEGER,
    nameId                      INTEGER NOT NULL,
    returnValue                 INTEGER NOT NULL,
    nestingLevel                INTEGER,
    callchainId                 INTEGER NOT NULL
);
