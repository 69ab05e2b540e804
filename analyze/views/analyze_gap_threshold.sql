-- analyze_gap_threshold: the shortest GPU idle gap the gap rules report, in ns (one row, ns): the
-- gap= option (us) when given, else 5% of the median steady-state step (analysis_steady_state),
-- else 100 us.
CREATE TEMP VIEW IF NOT EXISTS analyze_gap_threshold AS
SELECT coalesce((SELECT value FROM rule_options WHERE name = 'gap') * 1000,
                (SELECT 0.05 * medianDuration FROM analysis_steady_state), 100000) AS ns;
