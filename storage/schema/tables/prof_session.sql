-- prof's own record of the session, one row per SessionInfo field (docs/report-schema.md lists
-- the names). Values are text; numbers are written in decimal.
CREATE TABLE PROF_SESSION (
    name                        TEXT NOT NULL,
    value                       TEXT
);
