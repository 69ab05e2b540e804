-- GPU names by CUDA device id.
SELECT id, name FROM TARGET_INFO_GPU WHERE name IS NOT NULL ORDER BY rowid;
