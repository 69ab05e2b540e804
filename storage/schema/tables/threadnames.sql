-- Thread names; nameId refers to StringIds(id).
CREATE TABLE ThreadNames (
    nameId                      INTEGER NOT NULL,
    priority                    INTEGER,
    globalTid                   INTEGER
);
