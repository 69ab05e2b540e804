-- Names of DIAGNOSTIC_EVENT.source values.
CREATE TABLE ENUM_DIAGNOSTIC_SOURCE_TYPE (
    id                          INTEGER NOT NULL PRIMARY KEY,
    name                        TEXT,
    label                       TEXT
);
