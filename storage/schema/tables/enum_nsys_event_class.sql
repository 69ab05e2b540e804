-- Names of OSRT_API.eventClass values.
CREATE TABLE ENUM_NSYS_EVENT_CLASS (
    id                          INTEGER NOT NULL PRIMARY KEY,
    name                        TEXT,
    label                       TEXT
);
