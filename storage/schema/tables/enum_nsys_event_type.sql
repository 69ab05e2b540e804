-- Names of NVTX_EVENTS.eventType values.
CREATE TABLE ENUM_NSYS_EVENT_TYPE (
    id                          INTEGER NOT NULL PRIMARY KEY,
    name                        TEXT,
    label                       TEXT
);
