-- Names of CUPTI_ACTIVITY_KIND_SYNCHRONIZATION.syncType values.
CREATE TABLE ENUM_CUPTI_SYNC_TYPE (
    id                          INTEGER NOT NULL PRIMARY KEY,
    name                        TEXT,
    label                       TEXT
);
