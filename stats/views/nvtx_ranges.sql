-- View nvtx_ranges: every NVTX range that ended (push/pop and start/end), named the way nsys's NVTX
-- reports name them. Ranges still open when the capture stopped have no end and are left out.
-- Times in ns. Reads NVTX_EVENTS and StringIds only.
CREATE TEMP VIEW IF NOT EXISTS nvtx_ranges AS
WITH
  -- NvtxDomainCreate events (eventType 75) carry a domain's name in `text`; domain ids are chosen
  -- per process, so a domain is keyed by (domainId, pid). The first creation names it.
  domains AS (
    SELECT
      domainId AS id,
      (globalTid >> 24) & 0xFFFFFF AS pid,
      text AS name,
      min(start) AS created
    FROM NVTX_EVENTS
    WHERE eventType = 75
    GROUP BY domainId, pid
  )
SELECT
  -- range start and end timestamps (ns)
  ne.start AS start,
  ne.end AS end,
  -- end - start (ns)
  ne.end - ne.start AS duration,
  -- 'PushPop' for nvtxRangePush/Pop (eventType 59, NVTXt 70), 'StartEnd' for nvtxRangeStart/End
  -- (60, NVTXt 71)
  CASE WHEN ne.eventType IN (59, 70) THEN 'PushPop' ELSE 'StartEnd' END AS style,
  -- "<domain name>:<range text>"; the default domain (no NvtxDomainCreate) has an empty name, so
  -- its ranges read ":<text>". A registered string (textId) wins over an inline `text`.
  coalesce(d.name, '') || ':' || coalesce(sid.value, ne.text, '') AS name,
  -- the name's two parts, for grouping without building the name per row (nvtx_range_summary):
  -- the domain's name (NULL in the default domain) and the range text
  d.name AS domainName,
  coalesce(sid.value, ne.text, '') AS text,
  -- thread that opened the range (nsys GlobalId: pid in bits 24..47, tid in bits 0..23)
  ne.globalTid AS globalTid,
  -- NVTX domain id; push/pop stacks are kept per thread and domain
  ne.domainId AS domainId,
  -- the event's rowid, a stable tie-breaker
  ne.rowid AS eventRow
FROM NVTX_EVENTS AS ne
LEFT JOIN domains AS d
  ON d.id = ne.domainId AND d.pid = (ne.globalTid >> 24) & 0xFFFFFF
LEFT JOIN StringIds AS sid
  ON sid.id = ne.textId
WHERE ne.eventType IN (59, 60, 70, 71) AND ne.end IS NOT NULL;
