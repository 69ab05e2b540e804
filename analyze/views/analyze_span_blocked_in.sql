-- analyze_span_blocked_in: per span of analyze_cpu_spans and thread, the OS runtime call it spent
-- the most of the span in among the calls that carry a backtrace (OSRT_API.callchainId; prof
-- profile -t osrt with -s or --cpuctxsw takes one for calls of 80 us or more).
--   spanId, globalTid
--   ns: the span's time inside calls of that name made from that stack
--   stack: '<call> ← <frame> ← ...', the call's stack from its innermost frame, 5 frames at most
--     (Python frames by their function names)
CREATE TEMP VIEW IF NOT EXISTS analyze_span_blocked_in AS
WITH
  overlaps AS (
    SELECT span.spanId, osrt.globalTid, osrt.nameId, osrt.callchainId,
           sum(min(osrt.end, span.end) - max(osrt.start, span.start)) AS ns
    FROM analyze_cpu_spans AS span
    JOIN OSRT_API AS osrt
      ON osrt.callchainId != 0 AND osrt.start < span.end AND osrt.end > span.start
     AND (span.pid IS NULL OR (osrt.globalTid >> 24) & 0xFFFFFF = span.pid)
     AND (span.onlyTid IS NULL OR osrt.globalTid = span.onlyTid)
    GROUP BY span.spanId, osrt.globalTid, osrt.nameId, osrt.callchainId
  ),
  ranked AS (
    SELECT *, row_number() OVER (PARTITION BY spanId, globalTid
                                 ORDER BY ns DESC, callchainId) AS rank
    FROM overlaps
  )
SELECT
  ranked.spanId, ranked.globalTid, ranked.ns,
  call.value ||
    coalesce((SELECT group_concat(' ← ' || frame, '')
              FROM (SELECT symbol.value AS frame FROM OSRT_CALLCHAINS AS chain
                    JOIN StringIds AS symbol ON symbol.id = chain.symbol
                    WHERE chain.id = ranked.callchainId AND chain.stackDepth < 5
                    ORDER BY chain.stackDepth)), '') AS stack
FROM ranked
JOIN StringIds AS call ON call.id = ranked.nameId
WHERE ranked.rank = 1;
