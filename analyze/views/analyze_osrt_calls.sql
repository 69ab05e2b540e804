-- analyze_osrt_calls: the OS runtime calls of the current window (OSRT_API, named from StringIds),
-- as a TEMP table indexed by thread and start. Rebuilt for every rule run.
--   start, end (ns), globalTid, name
DROP TABLE IF EXISTS temp.analyze_osrt_calls;
CREATE TEMP TABLE analyze_osrt_calls AS
SELECT osrt.start, osrt.end, osrt.globalTid, name.value AS name
FROM OSRT_API AS osrt
JOIN StringIds AS name ON name.id = osrt.nameId;
CREATE INDEX temp.analyze_osrt_calls_by_thread ON analyze_osrt_calls (globalTid, start);
