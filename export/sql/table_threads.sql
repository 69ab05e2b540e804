-- The threads ($TABLE's globalTid values: nsys GlobalIds) that have events in $TABLE.
SELECT DISTINCT globalTid FROM $TABLE WHERE globalTid IS NOT NULL;
