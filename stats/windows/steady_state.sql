-- The steady state of a report (prof analyze's rules with step= and warmup=, the stats reports
-- that summarize it): the repeating NVTX range (a training step) and where its instances after
-- the warm-up begin and end. Run by stats/steady_state.cpp.
-- Parameters: ?1 the step= name (NULL: pick the range), ?2 warmup= (instances to skip).
-- The range is the one named ?1 (":<text>" may be given as "<text>"), else the name with at least
-- 3 instances whose instances add up to the most time (ties: more instances, then by name), so an
-- outer training step wins over the phases nested in it. Ranges are named as nvtx_ranges names
-- them ("<domain>:<text>"). Reads the file's own tables (main.), never a rule's time window
-- or a TEMP stand-in.
-- One row, or none when no range repeats:
--   name, instances, steadyStart (start of instance ?2 + 1; NULL when there are not that many),
--   steadyEnd (end of the last instance), medianDuration (median length of the steady instances).
WITH
  domains AS (
    SELECT domainId, (globalTid >> 24) & 0xFFFFFF AS pid, min(text) AS name
    FROM main.NVTX_EVENTS WHERE eventType = 75
    GROUP BY domainId, pid
  ),
  ranges AS (
    SELECT coalesce(domains.name, '') || ':' || coalesce(label.value, event.text, '') AS name,
           event.start, event.end
    FROM main.NVTX_EVENTS AS event
    LEFT JOIN domains
      ON domains.domainId = event.domainId AND domains.pid = (event.globalTid >> 24) & 0xFFFFFF
    LEFT JOIN StringIds AS label ON label.id = event.textId
    WHERE event.eventType IN (59, 60, 70, 71) AND event.end IS NOT NULL
  ),
  step AS (
    SELECT name FROM ranges
    WHERE ?1 IS NULL OR name = ?1 OR name = ':' || ?1
    GROUP BY name
    HAVING count(*) >= (CASE WHEN ?1 IS NULL THEN 3 ELSE 1 END)
    ORDER BY sum(end - start) DESC, count(*) DESC, name
    LIMIT 1
  ),
  instances AS (
    SELECT ranges.name, ranges.start, ranges.end,
           ROW_NUMBER() OVER (ORDER BY ranges.start, ranges.end) AS n
    FROM ranges JOIN step ON step.name = ranges.name
  )
SELECT name, count(*), min(CASE WHEN n > ?2 THEN start END), max(end),
       median(CASE WHEN n > ?2 THEN end - start END)
FROM instances
GROUP BY name;
