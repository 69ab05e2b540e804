-- Thread names by GlobalId; a thread renamed several times has several rows, the last wins.
SELECT t.globalTid, s.value
FROM ThreadNames AS t
JOIN StringIds AS s ON s.id = t.nameId
ORDER BY t.rowid;
