-- Every NVTX range that ended (push/pop: eventType 59, NVTXt 70; start/end: 60, NVTXt 71) and every
-- mark (34, NVTXt 65), in start order, the enclosing range first at equal starts. Ranges still
-- open when the capture stopped have no end and are left out. Times in ns.
WITH
  -- NvtxDomainCreate (75) names a domain, NvtxCategory (33, NVTXt 64) a category; both ids are
  -- chosen per process. The first naming wins.
  domains AS (
    SELECT domainId AS id, (globalTid >> 24) & 0xFFFFFF AS pid, text AS name, min(start)
    FROM NVTX_EVENTS WHERE eventType = 75 GROUP BY domainId, pid),
  categories AS (
    SELECT category AS id, (globalTid >> 24) & 0xFFFFFF AS pid, text AS name, min(start)
    FROM NVTX_EVENTS WHERE eventType IN (33, 64) GROUP BY category, pid)
SELECT
  ne.start,
  coalesce(ne.end, ne.start),
  -- a registered string (textId) wins over an inline text
  coalesce(sid.value, ne.text, ''),
  ne.globalTid,
  -- NULL for the default domain and for events without a category or colour
  d.name,
  c.name,
  ne.color,
  -- 0 push/pop range, 1 start/end range, 2 mark
  CASE WHEN ne.eventType IN (59, 70) THEN 0 WHEN ne.eventType IN (60, 71) THEN 1 ELSE 2 END
FROM NVTX_EVENTS AS ne
LEFT JOIN domains AS d ON d.id = ne.domainId AND d.pid = (ne.globalTid >> 24) & 0xFFFFFF
LEFT JOIN categories AS c ON c.id = ne.category AND c.pid = (ne.globalTid >> 24) & 0xFFFFFF
LEFT JOIN StringIds AS sid ON sid.id = ne.textId
WHERE ((ne.eventType IN (59, 60, 70, 71) AND ne.end IS NOT NULL) OR ne.eventType IN (34, 65))
  AND ne.globalTid IS NOT NULL
ORDER BY ne.start, ne.end DESC;
