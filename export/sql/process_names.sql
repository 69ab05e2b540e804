-- Process names by pid (nsys lists every process of the machine; prof the traced ones).
SELECT pid, name FROM PROCESSES WHERE name IS NOT NULL ORDER BY rowid;
