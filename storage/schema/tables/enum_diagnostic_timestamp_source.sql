-- Names of DIAGNOSTIC_EVENT.timestampType values.
CREATE TABLE ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE (
    id                          INTEGER NOT NULL PRIMARY KEY,
    name                        TEXT,
    label                       TEXT
);
