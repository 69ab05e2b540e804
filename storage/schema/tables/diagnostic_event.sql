-- Problems with the data of a process, one row per kind of problem: records lost (dropped under
-- back-pressure, cut by the process's death), a stream cut short. nsys's table; prof writes
-- timestampType 2 (host), source 2 (the launcher counted it) and severity 2 (warning).
CREATE TABLE DIAGNOSTIC_EVENT (
    timestamp                   INTEGER NOT NULL,
    timestampType               INTEGER NOT NULL,
    source                      INTEGER NOT NULL,
    severity                    INTEGER NOT NULL,
    text                        TEXT NOT NULL,
    globalPid                   INTEGER
);
