-- Names of DIAGNOSTIC_EVENT.severity values.
CREATE TABLE ENUM_DIAGNOSTIC_SEVERITY_LEVEL (
    id                          INTEGER NOT NULL PRIMARY KEY,
    name                        TEXT,
    label                       TEXT
);
