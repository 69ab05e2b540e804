"""The per-rank table and the summary across ranks, by the rule of prof's stats/rank_summary.h
(see there); a test checks that both give equal numbers, so a change there goes here too."""

import math
import os

VALUE_NAMES = ("Total Time", "NCCL Time", "Duration")
OUTLIER_DEVIATIONS = 3.0
MAD_TO_DEVIATION = 1.4826
MIN_OUTLIER_SHARE = 0.05


def _without_unit(column):
    unit = column.rfind(" (")
    return column if unit < 0 else column[:unit]


def _is_number(cell):
    return isinstance(cell, (int, float)) and not isinstance(cell, bool)


def _cell_text(cell):
    return "" if cell is None else str(cell)


def _median(values):
    ordered = sorted(values)
    n = len(ordered)
    return float(ordered[n // 2]) if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2.0


def per_rank_table(files):
    """files: [(path, rank, rows)] in input order -> the rows with File (and Rank) first."""
    with_rank = any(rank is not None for _, rank, _ in files)
    table = []
    for path, rank, rows in files:
        label = {"File": os.path.basename(path)}
        if with_rank:
            label["Rank"] = rank
        table.extend({**label, **row} for row in rows)
    return table


def _outliers(names, values, median):
    deviations = [math.fabs(value - median) for value in values]
    mad = _median(deviations)
    threshold = max(OUTLIER_DEVIATIONS * MAD_TO_DEVIATION * mad,
                    MIN_OUTLIER_SHARE * math.fabs(median))
    flagged = [name for name, deviation in zip(names, deviations) if deviation > threshold]
    return " ".join(flagged)


def across_ranks(files):
    """files: [(path, rank, rows)] -> the summary rows, or None without a value column."""
    tables = [(str(rank) if rank is not None else os.path.basename(path), rows)
              for path, rank, rows in files if rows]
    if not tables:
        return None
    columns = list(tables[0][1][0].keys())
    value = next((c for c in columns if _without_unit(c) in VALUE_NAMES), None)
    if value is None:
        return None
    keys = [c for c in columns if c != value and
            not any(_is_number(row[c]) for _, rows in tables for row in rows)]
    integral = all(isinstance(row[value], int) or row[value] is None
                   for _, rows in tables for row in rows)
    order, position, collected = [], {}, {}
    for name, rows in tables:
        sums = {}
        for row in rows:
            joined = "".join(_cell_text(row[c]) + "\x1f" for c in keys)
            if joined not in collected:
                collected[joined] = ([row[c] for c in keys], [], [])
                position[joined] = len(order)
                order.append(joined)
            cell = row[value]
            sums[joined] = sums.get(joined, 0.0) + (float(cell) if _is_number(cell) else 0.0)
        for joined in sorted(sums, key=position.get):
            collected[joined][1].append(name)
            collected[joined][2].append(sums[joined])
    as_value = int if integral else float
    summary = []
    for joined in order:
        key_cells, names, values = collected[joined]
        median = _median(values)
        row = dict(zip(keys, key_cells))
        row.update({
            "Ranks": len(values),
            "Min " + value: as_value(min(values)),
            "Med " + value: median,
            "Max " + value: as_value(max(values)),
            "Max Rank": names[values.index(max(values))],
            "Outlier Ranks": _outliers(names, values, median),
        })
        summary.append((median, row))
    summary.sort(key=lambda item: -item[0])  # stable: ties keep their first appearance
    return [row for _, row in summary]
