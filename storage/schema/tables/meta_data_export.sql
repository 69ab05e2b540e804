-- How and by what the report was written (product, schema version).
CREATE TABLE META_DATA_EXPORT (
    name                        TEXT NOT NULL,
    value                       TEXT
);
