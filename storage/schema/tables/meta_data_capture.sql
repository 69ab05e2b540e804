-- Capture settings, as name/value pairs (several rows may share a name).
CREATE TABLE META_DATA_CAPTURE (
    name                        TEXT NOT NULL,
    value                       TEXT
);
