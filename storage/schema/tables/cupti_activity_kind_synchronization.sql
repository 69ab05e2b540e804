-- Host threads waiting in synchronizing CUDA calls; syncType refers to ENUM_CUPTI_SYNC_TYPE(id).
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (
    start                       INTEGER NOT NULL,
    end                         INTEGER NOT NULL,
    deviceId                    INTEGER NOT NULL,
    contextId                   INTEGER NOT NULL,
    greenContextId              INTEGER,
    streamId                    INTEGER NOT NULL,
    correlationId               INTEGER,
    globalPid                   INTEGER,
    deprecatedSyncType          INTEGER,
    syncType                    INTEGER NOT NULL,
    eventId                     INTEGER NOT NULL,
    eventSyncId                 INTEGER
);
