-- NVTX ranges and marks; eventType refers to ENUM_NSYS_EVENT_TYPE(id), textId and jsonTextId to
-- StringIds(id).
CREATE TABLE NVTX_EVENTS (
    start                       INTEGER NOT NULL,
    end                         INTEGER,
    eventType                   INTEGER NOT NULL,
    rangeId                     INTEGER,
    category                    INTEGER,
    color                       INTEGER,
    text                        TEXT,
    globalTid                   INTEGER,
    endGlobalTid                INTEGER,
    textId                      INTEGER,
    domainId                    INTEGER,
    uint64Value                 INTEGER,
    int64Value                  INTEGER,
    doubleValue                 REAL,
    uint32Value                 INTEGER,
    int32Value                  INTEGER,
    floatValue                  REAL,
    jsonTextId                  INTEGER,
    jsonText                    TEXT,
    binaryData                  TEXT
);
