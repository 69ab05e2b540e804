-- Every OS runtime call, in start order (the enclosing call first at equal starts). Times in ns.
SELECT o.start, o.end, coalesce(s.value, ''), o.globalTid, o.returnValue
FROM OSRT_API AS o
LEFT JOIN StringIds AS s ON s.id = o.nameId
WHERE o.globalTid IS NOT NULL
ORDER BY o.start, o.end DESC;
