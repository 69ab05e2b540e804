-- View nvtx_range_summary: the duration statistics of every NVTX range name and style, shared by
-- nvtx_sum, nvtx_pushpop_sum and nvtx_startend_sum. Times in ns, unrounded. Reads NVTX_EVENTS and
-- StringIds, naming ranges as the nvtx_ranges view does.
--
-- One pass over NVTX_EVENTS, spread over threads by rowid slices (stats/parallel_groups.h), groups
-- both the ended ranges and the domain creations (eventType 75) by (domainId, pid, text,
-- eventType); a range's duration is the value, a creation's start time. The few groups are then
-- named: a domain is named by its first creation, and groups that share a domain name, text and
-- style are merged (duration_groups_merge), so that NVTX_EVENTS is read once, not once more for
-- the domains. Grouping by the name's parts rather than the joined name means two pairs that join
-- to the same name (domain "a:b" with text "c", domain "a" with text "b:c") give two rows.
CREATE TEMP VIEW IF NOT EXISTS nvtx_range_summary AS
WITH
  events AS MATERIALIZED (
    SELECT key1 AS domainId, key2 AS pid, key3 AS text, key4 AS eventType,
      -- a creation's earliest start; asked of creations only, so that the ranges' statistics
      -- are computed once, after the merge
      CASE WHEN key4 = 75 THEN shortest END AS created,
      group_values
    FROM duration_summary(duration_groups_parallel('NVTX_EVENTS',
      'SELECT duration_groups(
         CASE WHEN ne.eventType = 75 THEN ne.start ELSE ne.end - ne.start END,
         ne.domainId,
         (ne.globalTid >> 24) & 0xFFFFFF,
         -- a creation names its domain in text; a range''s registered string (textId) wins
         CASE WHEN ne.eventType = 75 THEN ne.text ELSE coalesce(sid.value, ne.text, '''') END,
         ne.eventType)
       FROM NVTX_EVENTS AS ne
       LEFT JOIN StringIds AS sid ON sid.id = ne.textId
       WHERE ne.rowid BETWEEN ?1 AND ?2
         AND (ne.eventType = 75 OR (ne.eventType IN (59, 60, 70, 71) AND ne.end IS NOT NULL))'))
  ),
  -- domain ids are chosen per process, so a domain is keyed by (domainId, pid); the name of its
  -- earliest creation wins
  domains AS (
    SELECT domainId, pid, text AS name, min(created) AS created
    FROM events
    WHERE eventType = 75
    GROUP BY domainId, pid
  ),
  ranges AS (
    SELECT
      duration_groups_merge(
        e.group_values,
        d.name,
        e.text,
        -- 'PushPop' for nvtxRangePush/Pop (eventType 59, NVTXt 70), 'StartEnd' for
        -- nvtxRangeStart/End (60, NVTXt 71)
        CASE WHEN e.eventType IN (59, 70) THEN 'PushPop' ELSE 'StartEnd' END) AS groups
    FROM events AS e
    LEFT JOIN domains AS d ON d.domainId = e.domainId AND d.pid = e.pid
    WHERE e.eventType != 75
  )
SELECT
  -- "<domain>:<name>", ":<name>" in the default domain
  coalesce(key1, '') || ':' || key2 AS name,
  -- PushPop or StartEnd
  key3 AS style,
  -- sum, count, mean, median (mean of the two middle values for an even count), extremes and
  -- sample standard deviation (0 for a single range) of the durations
  -- (stats/duration_summary.h)
  total,
  instances,
  mean,
  middle,
  shortest,
  longest,
  deviation
FROM duration_summary((SELECT groups FROM ranges));
