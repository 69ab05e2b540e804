-- summary: the findings of the other prof rules, ranked by the GPU time they could give back in
-- the window (the steady state by default), each as one sentence with its evidence, the usual
-- remedy and the rule that lists the rows behind it. Times in ns.
-- Recoverable time, per finding (the gaps are those of gap_cause, analyze_gap_causes):
--   input wait:      idle time of the gaps during which the launching thread was blocked in an
--                    OS runtime call (poll, read, pthread_cond_wait, ...: waiting for data);
--   host syncs:      idle time of the gaps caused by stream/device/event synchronizations; without
--                    such gaps, the host time blocked in them (the time the host could have spent
--                    preparing and launching ahead), when there is at least one per step (fewer is
--                    already the remedy: metrics read every N steps);
--   pageable copies: idle time of the gaps caused by copies the host had to wait for
--                    (synchronous copies, async copies on pageable memory); without such gaps,
--                    the host time blocked in them, when there is at least one per step;
--   host code:       idle time of the gaps during which the launching thread ran untraced code
--                    or slow CUDA calls; named launch-bound when most kernels are under 10 us;
--   unhidden copies: copy time no kernel overlapped (analyze_device_overlap), at most the kernel
--                    time: a copy can only hide behind kernels that exist;
--   GPU-bound:       no recoverable estimate (NULL): listed when the devices are idle (in gaps of
--                    any length) less than 5% of their spans;
--   busy but underused (with GPU metrics, per device): the kernel busy time of the windows
--                    gpu_underuse lists (analyze_gpu_underuse) times the share of the SMs left
--                    unused, (100 - mean SMs Active) %: what kernels that filled the GPU could save.
-- With CPU samples, a gap finding ends with one more sentence from the gaps' samples and thread
-- switches (cpu_in_gaps: analyze_span_threads, analyze_span_functions): the thread that feeds
-- the GPU was blocked for at least half the idle time (with the stack it waited in longest, where
-- OS runtime calls carry backtraces: analyze_span_blocked_in), else the busiest thread's top
-- function.
-- Without samples the findings are as before, word for word.
-- With `prof profile --pytorch` ranges, a finding ends with the PyTorch operator and module the
-- host was in (analyze_pytorch_places: the innermost of each kind around the event), the pair
-- with the most of the finding's time: blocked time in its calls for syncs and copies, idle time
-- of its gaps (the launching thread at each gap's middle) for input wait and host code: "Most of
-- that time was spent in aten::item under Net.fc (Linear)." Nothing is added when most of it was
-- outside every such range, so without the ranges the findings are as before, word for word.
-- Rows by recoverable time, largest first (GPU-bound last), at most rows= rows. A finding with
-- nothing to recover is left out; no row at all means nothing was found.
WITH
  span AS (SELECT max(end) - min(start) AS ns FROM analyze_stream_ops),
  steps AS (SELECT steps AS n FROM analysis_steady_state),
  gaps AS (SELECT * FROM analyze_gap_causes),
  gap_groups AS (
    SELECT
      CASE
        WHEN cause = 'OS runtime call' THEN 'input wait'
        WHEN cause = 'CUDA synchronization' AND call LIKE 'cudaMemcpy%' THEN 'pageable copies'
        WHEN cause = 'CUDA synchronization' THEN 'host syncs'
        WHEN cause IN ('host code', 'CUDA API call') THEN 'host code'
      END AS finding,
      gapId, duration, call, nvtxRange, tid
    FROM gaps
  ),
  -- Per finding: idle time, gaps, and the call and range behind most of that time.
  gap_findings AS (
    SELECT finding, sum(duration) AS idle, count(*) AS gapCount,
           (SELECT g2.call FROM gap_groups AS g2 WHERE g2.finding = g.finding
            GROUP BY g2.call ORDER BY sum(g2.duration) DESC, g2.call LIMIT 1) AS topCall,
           (SELECT g2.nvtxRange FROM gap_groups AS g2 WHERE g2.finding = g.finding
            GROUP BY g2.nvtxRange ORDER BY sum(g2.duration) DESC, g2.nvtxRange LIMIT 1)
             AS topRange
    FROM gap_groups AS g
    WHERE finding IS NOT NULL
    GROUP BY finding
  ),
  -- The gaps' CPU threads (none without CPU samples), per finding: the feeding threads' blocked
  -- time, the thread with the most samples and the function it was sampled in most.
  gap_threads AS (
    SELECT g.finding, t.globalTid, t.samples, coalesce(t.blocked, 0) AS blocked,
           t.globalTid IS g.tid AS feeds
    FROM gap_groups AS g JOIN analyze_span_threads AS t ON t.spanId = g.gapId
    WHERE g.finding IS NOT NULL
  ),
  busiest AS (
    SELECT * FROM (
      SELECT finding, globalTid, sum(samples) AS samples,
             ROW_NUMBER() OVER (PARTITION BY finding ORDER BY sum(samples) DESC, globalTid) AS rank
      FROM gap_threads GROUP BY finding, globalTid)
    WHERE rank = 1 AND samples > 0
  ),
  busiest_function AS (
    SELECT * FROM (
      SELECT g.finding, fn.function, sum(fn.samples) AS samples,
             ROW_NUMBER() OVER (PARTITION BY g.finding ORDER BY sum(fn.samples) DESC, fn.function)
               AS rank
      FROM gap_groups AS g
      JOIN busiest AS b ON b.finding = g.finding
      JOIN analyze_span_functions AS fn ON fn.spanId = g.gapId AND fn.globalTid = b.globalTid
      GROUP BY g.finding, fn.function)
    WHERE rank = 1
  ),
  -- The stack the feeding thread waited in longest (OS runtime calls with a backtrace).
  feed_stacks AS (
    SELECT * FROM (
      SELECT g.finding, blocked.stack,
             ROW_NUMBER() OVER (PARTITION BY g.finding ORDER BY sum(blocked.ns) DESC,
                                blocked.stack) AS rank
      FROM gap_groups AS g
      JOIN analyze_span_blocked_in AS blocked
        ON blocked.spanId = g.gapId AND blocked.globalTid IS g.tid
      WHERE g.finding IS NOT NULL
      GROUP BY g.finding, blocked.stack)
    WHERE rank = 1
  ),
  cpu_sentences AS (
    SELECT f.finding,
      CASE
        WHEN 2 * (SELECT sum(t.blocked) FROM gap_threads AS t
                  WHERE t.finding = f.finding AND t.feeds) >= f.idle
          THEN printf(' In the gap%s the thread that feeds the GPU was blocked for %.3f ms of the '
                      || '%.3f ms%s.', CASE f.gapCount WHEN 1 THEN '' ELSE 's' END,
                      (SELECT sum(t.blocked) FROM gap_threads AS t
                       WHERE t.finding = f.finding AND t.feeds) / 1e6, f.idle / 1e6,
                      coalesce(', longest in ' || fs.stack, ''))
        WHEN b.globalTid IS NOT NULL
          THEN printf(' In the gap%s the busiest thread (TID %d) was most often in %s: %d of its %d'
                      || ' CPU samples.', CASE f.gapCount WHEN 1 THEN '' ELSE 's' END,
                      b.globalTid & 0xFFFFFF, bf.function, bf.samples, b.samples)
        ELSE ''
      END AS sentence
    FROM gap_findings AS f
    LEFT JOIN busiest AS b ON b.finding = f.finding
    LEFT JOIN busiest_function AS bf ON bf.finding = f.finding
    LEFT JOIN feed_stacks AS fs ON fs.finding = f.finding
  ),
  syncs AS (
    SELECT count(*) AS calls, sum(end - start) AS blocked FROM analyze_sync_calls
    WHERE kind IN ('stream sync', 'device sync', 'event sync')
  ),
  copies AS (
    SELECT count(*) AS calls, sum(end - start) AS blocked FROM analyze_sync_calls
    WHERE kind IN ('sync copy', 'pageable async copy')
  ),
  -- Per finding, the operator and module (--pytorch ranges) the host was in for most of its
  -- time: the blocking calls of the sync and copy findings, the launching thread at the middle
  -- of each gap of the input wait and host code findings (analyze_pytorch_places).
  places AS (
    SELECT finding, operator, module,
           ROW_NUMBER() OVER (PARTITION BY finding ORDER BY weight DESC, operator, module) AS rank
    FROM (
      SELECT CASE WHEN label IN ('sync copy', 'pageable async copy') THEN 'pageable copies'
                  ELSE 'host syncs' END AS finding,
             operator, module, sum(weight) AS weight
      FROM analyze_pytorch_places WHERE source = 'call'
      GROUP BY 1, 2, 3
      UNION ALL
      SELECT g.finding, p.operator, p.module, sum(p.weight)
      FROM analyze_pytorch_places AS p JOIN gap_groups AS g ON g.gapId = p.label
      WHERE p.source = 'gap' AND g.finding IN ('input wait', 'host code')
      GROUP BY 1, 2, 3)
  ),
  place_sentences AS (
    SELECT finding,
      ' Most of that time was spent'
        || CASE WHEN operator IS NOT NULL THEN ' in ' || operator ELSE '' END
        || CASE WHEN module IS NOT NULL THEN ' under ' || module ELSE '' END || '.' AS sentence
    FROM places
    WHERE rank = 1 AND (operator IS NOT NULL OR module IS NOT NULL)
  ),
  -- The window's steps (0 without a step range) and ", 1.0 per step" texts when it has steps.
  per_step AS (
    SELECT coalesce(steps.n, 0) AS steps,
           CASE WHEN steps.n > 0 THEN printf(', %.1f per step', 1.0 * syncs.calls / steps.n)
                ELSE '' END AS syncs,
           CASE WHEN steps.n > 0 THEN printf(', %.1f per step', 1.0 * copies.calls / steps.n)
                ELSE '' END AS copies
    FROM syncs, copies LEFT JOIN steps ON 1
  ),
  device_totals AS (
    SELECT sum(kernels) AS kernels, sum(shortKernels) AS shortKernels,
           sum(kernelTime) AS kernelTime, sum(copyTime) AS copyTime,
           sum(copyTime - overlapped) AS unhidden
    FROM analyze_device_overlap
  ),
  -- Idle time in gaps of any length, and the devices' summed spans.
  ordered_ops AS (
    SELECT pid, deviceId, start, end,
           max(end) OVER (PARTITION BY pid, deviceId ORDER BY start, end
                          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS previousEnd
    FROM analyze_stream_ops
  ),
  device_time AS (
    SELECT coalesce(sum(CASE WHEN start > previousEnd THEN start - previousEnd END), 0) AS idle,
           (SELECT sum(span) FROM (SELECT max(end) - min(start) AS span FROM analyze_stream_ops
                                   GROUP BY pid, deviceId)) AS span
    FROM ordered_ops
  ),
  -- Per device, the busy-but-underused windows (none without GPU metrics) and their top kernels.
  underuse AS (
    SELECT device, label, count(*) AS n, max(windows) AS windows,
           CAST(sum(busyTime * (100 - used) / 100.0) AS INTEGER) AS recoverable,
           sum(busy * (end - start)) / sum(end - start) AS busy,
           sum(used * (end - start)) / sum(end - start) AS used,
           count(smActive) > 0 AS bySmActive
    FROM analyze_gpu_underuse
    GROUP BY device
  ),
  underuse_kernels AS (
    SELECT device, group_concat(printf('%s (%.3f ms)', name, time / 1e6), '; ') AS names
    FROM (SELECT device, name, sum(time) AS time,
                 ROW_NUMBER() OVER (PARTITION BY device ORDER BY sum(time) DESC, name) AS rank
          FROM analyze_gpu_underuse_kernels GROUP BY device, name
          ORDER BY device, rank)
    WHERE rank <= 3
    GROUP BY device
  ),
  -- Text helpers: a duration in ms, " in <range>" when there is a range.
  findings AS (
    SELECT f.idle AS recoverable,
      printf('The GPU was idle %.3f ms in %d gap%s while the thread that feeds it was blocked in '
             || '%s%s: it was waiting for input data (DataLoader workers or file reads).',
             f.idle / 1e6, f.gapCount, CASE f.gapCount WHEN 1 THEN '' ELSE 's' END, f.topCall,
             CASE WHEN f.topRange <> '' THEN ' in ' || f.topRange ELSE '' END)
        || coalesce(cpu.sentence, '') || coalesce(place.sentence, '') AS finding,
      'More DataLoader workers (num_workers), prefetch_factor, persistent_workers=True, '
        || 'pin_memory=True; move preprocessing out of the training loop.' AS remedy,
      'gap_cause_sum' AS rule
    FROM gap_findings AS f LEFT JOIN cpu_sentences AS cpu ON cpu.finding = f.finding
    LEFT JOIN place_sentences AS place ON place.finding = f.finding
    WHERE f.finding = 'input wait'
    UNION ALL
    SELECT coalesce(f.idle, syncs.blocked),
      CASE WHEN f.idle IS NOT NULL THEN
        printf('The GPU was idle %.3f ms in %d gap%s after the host waited in %s%s (%d stream, '
               || 'device or event syncs in the window%s, %.3f ms blocked).',
               f.idle / 1e6, f.gapCount, CASE f.gapCount WHEN 1 THEN '' ELSE 's' END, f.topCall,
               CASE WHEN f.topRange <> '' THEN ' in ' || f.topRange ELSE '' END, syncs.calls,
               per_step.syncs, syncs.blocked / 1e6) || coalesce(cpu.sentence, '')
      ELSE
        printf('The host was blocked %.3f ms in %d stream, device or event syncs%s.',
               syncs.blocked / 1e6, syncs.calls, per_step.syncs)
      END || coalesce(place.sentence, ''),
      'Remove per-step syncs: no .item(), .cpu(), print(tensor) or torch.cuda.synchronize() in '
        || 'the loop; accumulate metrics on the GPU and read them every N steps.',
      'sync_hotspots'
    FROM syncs LEFT JOIN gap_findings AS f ON f.finding = 'host syncs'
    LEFT JOIN cpu_sentences AS cpu ON cpu.finding = f.finding
    LEFT JOIN place_sentences AS place ON place.finding = 'host syncs', per_step
    WHERE syncs.calls > 0 AND (f.idle IS NOT NULL OR per_step.steps = 0
                               OR syncs.calls >= per_step.steps)
    UNION ALL
    SELECT coalesce(f.idle, copies.blocked),
      CASE WHEN f.idle IS NOT NULL THEN
        printf('The GPU was idle %.3f ms in %d gap%s while the host waited in %s%s: %d copies '
               || 'were synchronous or used pageable memory (%.3f ms blocked).',
               f.idle / 1e6, f.gapCount, CASE f.gapCount WHEN 1 THEN '' ELSE 's' END, f.topCall,
               CASE WHEN f.topRange <> '' THEN ' in ' || f.topRange ELSE '' END, copies.calls,
               copies.blocked / 1e6) || coalesce(cpu.sentence, '')
      ELSE
        printf('The host was blocked %.3f ms in %d copies that were synchronous or used pageable '
               || 'memory%s.', copies.blocked / 1e6, copies.calls, per_step.copies)
      END || coalesce(place.sentence, ''),
      'Use pinned memory (DataLoader pin_memory=True, tensor.pin_memory()) and '
        || '.to(device, non_blocking=True).',
      'cuda_memcpy_async'
    FROM copies LEFT JOIN gap_findings AS f ON f.finding = 'pageable copies'
    LEFT JOIN cpu_sentences AS cpu ON cpu.finding = f.finding
    LEFT JOIN place_sentences AS place ON place.finding = 'pageable copies', per_step
    WHERE copies.calls > 0 AND (f.idle IS NOT NULL OR per_step.steps = 0
                                OR copies.calls >= per_step.steps)
    UNION ALL
    SELECT f.idle,
      CASE WHEN 2 * d.shortKernels >= d.kernels THEN
        printf('The GPU was idle %.3f ms in %d gap%s while the host was launching work%s; %d of '
               || '%d kernels ran under 10 us: the step is launch-bound.',
               f.idle / 1e6, f.gapCount, CASE f.gapCount WHEN 1 THEN '' ELSE 's' END,
               CASE WHEN f.topRange <> '' THEN ' in ' || f.topRange ELSE '' END, d.shortKernels,
               d.kernels) || coalesce(cpu.sentence, '')
      ELSE
        printf('The GPU was idle %.3f ms in %d gap%s while the host ran code between launches%s.',
               f.idle / 1e6, f.gapCount, CASE f.gapCount WHEN 1 THEN '' ELSE 's' END,
               CASE WHEN f.topRange <> '' THEN ' in ' || f.topRange ELSE '' END)
          || coalesce(cpu.sentence, '')
      END || coalesce(place.sentence, ''),
      CASE WHEN 2 * d.shortKernels >= d.kernels THEN
        'Launch less: CUDA graphs (torch.compile(mode="reduce-overhead")), kernel fusion, AMP, '
          || 'larger batches.'
      ELSE
        'Move host work out of the loop or overlap it with GPU work; CUDA graphs or '
          || 'torch.compile remove launch overhead; larger batches amortize it.'
      END,
      'gap_cause'
    FROM gap_findings AS f LEFT JOIN cpu_sentences AS cpu ON cpu.finding = f.finding
    LEFT JOIN place_sentences AS place ON place.finding = f.finding, device_totals AS d
    WHERE f.finding = 'host code'
    UNION ALL
    SELECT min(d.unhidden, d.kernelTime),
      printf('%.3f ms of the %.3f ms of copies ran while no kernel did; overlapping them with '
             || 'the %.3f ms of kernels would hide up to %.3f ms.', d.unhidden / 1e6,
             d.copyTime / 1e6, d.kernelTime / 1e6, min(d.unhidden, d.kernelTime) / 1e6),
      'Copy the next batch ahead of time on a side stream, from pinned memory with '
        || 'non_blocking=True, so copies overlap kernels.',
      'overlap'
    FROM device_totals AS d WHERE min(d.unhidden, d.kernelTime) > 0
    UNION ALL
    SELECT NULL,
      printf('The GPUs were busy %.1f%% of their time (%.3f ms idle of %.3f ms): the step is '
             || 'GPU-bound.', 100.0 - 100.0 * t.idle / t.span, t.idle / 1e6, t.span / 1e6),
      'Make the kernels faster: AMP (torch.autocast with bf16 or fp16), TF32 matmuls, fused '
        || 'or compiled kernels (torch.compile).',
      'gpu_time_util'
    FROM device_time AS t WHERE t.span > 0 AND 20 * t.idle < t.span
    UNION ALL
    SELECT u.recoverable,
      printf('GPU %d was busy but underused in %s: kernels ran %.1f%% of the time but %s averaged '
             || '%.1f%%. Top kernels: %s.', u.device,
             CASE WHEN u.label <> '' THEN printf('%d of %d %s instances', u.n, u.windows, u.label)
                  ELSE 'the window' END,
             u.busy, CASE WHEN u.bySmActive THEN 'SMs Active' ELSE 'SM Issue' END, u.used,
             k.names),
      'Give each kernel more parallel work: larger batches, fused or compiled kernels '
        || '(torch.compile); look at the top kernel''s occupancy in Nsight Compute; run '
        || 'independent work concurrently (streams, CUDA graphs).',
      'gpu_underuse'
    FROM underuse AS u LEFT JOIN underuse_kernels AS k ON k.device = u.device
  )
SELECT
  ROW_NUMBER() OVER (ORDER BY recoverable DESC NULLS LAST, rule) AS "Rank",
  recoverable AS "Recoverable (ns)",                 -- estimated GPU time to win back
  round(1.0 * recoverable / (SELECT n FROM steps), 1) AS "Per Step (ns)",
  round(100.0 * recoverable / (SELECT ns FROM span), 1) AS "Window (%)",
  finding AS "Finding",
  remedy AS "Remedy",
  'prof analyze -r ' || rule AS "Rows"               -- the rule that lists the evidence
FROM findings
WHERE recoverable IS NULL OR recoverable > 0
ORDER BY 1
LIMIT (SELECT value FROM rule_options WHERE name = 'rows');
