-- Time-window queries scan OSRT_API by start.
CREATE INDEX prof_osrt_api_start ON OSRT_API (start);
