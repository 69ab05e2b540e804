-- Interned strings: every *Id / nameId column that names text refers to StringIds(id).
CREATE TABLE StringIds (
    id                          INTEGER NOT NULL PRIMARY KEY,
    value                       TEXT NOT NULL
);
