"""The printed table: per workload, one row per mode and metric (median, min-max, added over no
profiler, wall time, memory, report size), then the mode's other figures on one line; then the
budget lines with PASS/MISS."""

_HEADER = (f"{'mode':<24} {'runs':>4} {'metric':<20} {'median':>10} {'min':>10} {'max':>10} "
           f"{'+plain':>9} {'wall s':>7} {'launcher MB':>11} {'program MB':>10} {'report MB':>9}")
_SHOWN = {"wall_s", "launcher_peak_kb", "peak_rss_kb", "report_bytes", "tree_peak_kb"}


def _number(value, width):
    if value is None:
        return f"{'-':>{width}}"
    if value == int(value) and abs(value) < 1e12:
        return f"{int(value):>{width}}"
    if abs(value) >= 1e5:
        return f"{value:>{width}.3g}"
    return f"{value:>{width}.3f}" if abs(value) < 100 else f"{value:>{width}.1f}"


def _get(keys, key, scale=1.0):
    entry = keys.get(key)
    return entry["median"] * scale if entry else None


def _mode_rows(mode, keys, metrics, plain):
    rows = []
    for metric in metrics or ("wall_s",):
        entry = keys.get(metric)
        if entry is None:
            continue
        base = plain.get(metric)
        gain = entry["median"] - base["median"] if base and mode != "plain" else None
        rows.append(
            f"{mode:<24} {entry['n']:>4} {metric:<20} {_number(entry['median'], 10)} "
            f"{_number(entry['min'], 10)} {_number(entry['max'], 10)} {_number(gain, 9)} "
            f"{_number(_get(keys, 'wall_s'), 7)} "
            f"{_number(_get(keys, 'launcher_peak_kb', 1 / 1024), 11)} "
            f"{_number(_get(keys, 'peak_rss_kb', 1 / 1024), 10)} "
            f"{_number(_get(keys, 'report_bytes', 1 / 2**20), 9)}")
    others = sorted(set(keys) - _SHOWN - set(metrics))
    if others:
        rows.append(f"{'':<24} " + "  ".join(f"{key}={_number(keys[key]['median'], 0).strip()}"
                                            for key in others))
    return rows


def workload_lines(workload, result):
    lines = [f"== {workload.name}: {workload.title}"]
    lines += [f"skipped: {why}" for why in result.get("skipped_modes", {}).values()]
    if "skipped" in result:
        return lines + [f"skipped: {result['skipped']}"]
    for record in result["records"]:
        if "error" in record:
            lines.append(f"FAILED: {record['mode']} round {record['round']}: {record['error']}")
    summary = result["summary"]
    lines.append(_HEADER)
    for mode in summary:
        lines += _mode_rows(mode, summary[mode], workload.metrics, summary.get("plain", {}))
    return lines


def budget_lines(judged):
    lines = ["== budget", f"{'workload':<14} {'budget':<58} {'measured':>10} {'limit':>9}  status"]
    for line in judged:
        lines.append(f"{line['workload']:<14} {line['budget']:<58} {_number(line['value'], 10)} "
                     f"{line['limit']:>9}  {line['status']}")
    return lines
