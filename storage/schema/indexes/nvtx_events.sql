-- Time-window queries (stats, GPU projection of ranges) scan NVTX_EVENTS by start.
CREATE INDEX prof_nvtx_events_start ON NVTX_EVENTS (start);
