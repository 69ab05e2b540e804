"""Medians, minima and maxima of every number the runs of each mode recorded; failed runs are left
out. summary[mode][key] = {"median", "min", "max", "n"}."""
import statistics


def summarize(records):
    values = {}
    for record in records:
        if "error" in record:
            continue
        per_mode = values.setdefault(record["mode"], {})
        for key, value in record["m"].items():
            per_mode.setdefault(key, []).append(value)
    return {mode: {key: {"median": statistics.median(seen), "min": min(seen), "max": max(seen),
                         "n": len(seen)}
                   for key, seen in keys.items()}
            for mode, keys in values.items()}


def median(summary, mode, key):
    """The median of key in mode, or None when no run of mode recorded it."""
    entry = summary.get(mode, {}).get(key)
    return entry["median"] if entry else None
