-- An empty stand-in for nsys's PROFILER_OVERHEAD (prof's reports have no such table), with the
-- columns of nsys 2025.3's export schema, so that analyze_gpu_ops reads the same SQL on both.
CREATE TEMP TABLE IF NOT EXISTS PROFILER_OVERHEAD (
    start       INTEGER NOT NULL,
    end         INTEGER NOT NULL,
    globalTid   INTEGER,
    nameId      INTEGER NOT NULL,
    returnValue INTEGER NOT NULL
);
