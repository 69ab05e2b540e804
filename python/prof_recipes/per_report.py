"""The work of one report, run on a Dask worker: the `prof` binary there reads the file."""

import json
import os
import sqlite3
import subprocess


def report_rank(path):
    """The report's rank as prof's stats/report_rank.h reads it: MPI_RANKS holding one rank."""
    uri = "file:" + os.path.abspath(path) + "?mode=ro&immutable=1"
    try:
        with sqlite3.connect(uri, uri=True) as db:
            lowest, highest = db.execute("SELECT MIN(rank), MAX(rank) FROM MPI_RANKS").fetchone()
    except sqlite3.Error:
        return None
    return lowest if lowest is not None and lowest == highest else None


def run_on_report(prof, command, selection, path):
    """(rank, rows) of `prof <command> -f json -r <selection> <path>`; rows is a list of dicts
    (empty when the report lacks the data). Raises RuntimeError with prof's error line."""
    result = subprocess.run(
        [prof, command, "-q", "-j", "1", "-f", "json", "-r", selection, path],
        capture_output=True, text=True, check=False)
    if result.returncode != 0:
        message = result.stderr.strip().removeprefix("prof: error: ")
        raise RuntimeError(message or f"prof {command} failed on {path}")
    rows = json.loads(result.stdout) if result.stdout.strip() else []
    return report_rank(path), rows
