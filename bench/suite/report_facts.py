"""What a finished SQLite report holds, for the counts the budget compares: NVTX push/pop ranges,
kernels, CUDA runtime calls, OS-runtime calls, and the records prof dropped. Works on prof's
reports and on nsys's exports alike (same schema); tables a report lacks count as absent."""
import sqlite3

_COUNTS = {
    "nvtx_ranges": "SELECT COUNT(*) FROM NVTX_EVENTS WHERE eventType = 59",  # push/pop ranges
    "kernels": "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL",
    "runtime_calls": "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME",
    "osrt_calls": "SELECT COUNT(*) FROM OSRT_API",
    "dropped": "SELECT CAST(value AS INTEGER) FROM PROF_SESSION WHERE name = 'dropped_records'",
}


def report_facts(path):
    """{fact: number} for the tables present in the report at path."""
    facts = {}
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        for fact, query in _COUNTS.items():
            try:
                row = connection.execute(query).fetchone()
            except sqlite3.OperationalError:  # no such table
                continue
            if row is not None:
                facts[fact] = row[0]
    finally:
        connection.close()
    return facts
