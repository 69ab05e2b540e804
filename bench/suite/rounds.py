"""Runs a workload's modes interleaved, A B C, B C A, C A B, ...: each round starts with the next
mode, so no mode always runs first or always after the same neighbour, and slow drifts of the
machine's state fall on all modes alike. Every run becomes one record: its mode, its round, its
exit code and a flat dict of numbers (m); the last round's SQLite reports are kept for later
workloads, earlier ones are deleted to bound disk use (10 million events make GB-sized files)."""
import os
import sys

from .process import run_measured
from .report_facts import report_facts


def _sizes(command):
    sizes = {}
    if command.report and os.path.exists(command.report):
        sizes["report_bytes"] = os.path.getsize(command.report)
    if command.sqlite and command.sqlite != command.report and os.path.exists(command.sqlite):
        sizes["sqlite_bytes"] = os.path.getsize(command.sqlite)
    return sizes


def _latency(numbers, end_ns):
    """Report-ready latency and end-to-end row rate, when the program printed its clock."""
    derived = {}
    if "exit_monotonic_ns" in numbers:
        derived["report_ready_s"] = (end_ns - numbers.pop("exit_monotonic_ns")) / 1e9
    if "start_monotonic_ns" in numbers:
        seconds = (end_ns - numbers.pop("start_monotonic_ns")) / 1e9
        if numbers.get("nvtx_ranges"):
            derived["rows_per_s"] = numbers["nvtx_ranges"] / seconds
    return derived


def _tail(path, lines=5):
    with open(path, errors="replace") as output:
        return "".join(output.readlines()[-lines:]).strip()


def run_once(mode, command, prefix, timeout_s=None):
    """One run of command (and its export), each killed after timeout_s; its record."""
    outcome = run_measured(command.argv, command.env, prefix + ".out", timeout_s)
    record = {"mode": mode.name, "rc": outcome.rc, "m": dict(outcome.values)}
    numbers = record["m"]
    numbers.update(wall_s=outcome.wall_s, launcher_peak_kb=outcome.launcher_peak_kb,
                   tree_peak_kb=outcome.tree_peak_kb)
    if outcome.rc != 0:
        record["error"] = f"exit {outcome.rc}: {_tail(prefix + '.out')}".strip()
        return record
    if command.export:
        exported = run_measured(command.export, command.env, prefix + ".export.out", timeout_s)
        if exported.rc != 0:
            record["error"] = f"export exit {exported.rc}: {_tail(prefix + '.export.out')}".strip()
            return record
        numbers["export_s"] = exported.wall_s
    if command.sqlite and os.path.exists(command.sqlite):
        numbers.update(report_facts(command.sqlite))
    numbers.update(_sizes(command))
    numbers.update(_latency(numbers, outcome.end_ns))
    if command.export and "report_ready_s" in numbers:  # nsys: its import, then its export
        numbers["import_export_s"] = numbers["report_ready_s"] + numbers["export_s"]
    return record


def _remove(command):
    for path in {command.report, command.sqlite} - {None}:
        if os.path.exists(path):
            os.remove(path)


def run_rounds(workload, modes, tools, program, runs, work_dir, timeout_s=None):
    """Records of `runs` rounds of modes, and {mode: the SQLite report of its last run}."""
    records, kept = [], {}
    os.makedirs(work_dir, exist_ok=True)
    for round_index in range(runs):
        for offset in range(len(modes)):
            mode = modes[(offset + round_index) % len(modes)]
            prefix = os.path.join(work_dir, f"{mode.name}-{round_index + 1}")
            command = mode.command(tools, program, prefix)
            record = run_once(mode, command, prefix, timeout_s)
            record["round"] = round_index + 1
            records.append(record)
            status = record.get("error", "").splitlines()[:1] or [f"{record['m']['wall_s']:.2f} s"]
            print(f"  {workload.name} round {round_index + 1}/{runs} {mode.name}: {status[0]}",
                  file=sys.stderr, flush=True)
            if round_index + 1 < runs:
                _remove(command)
            elif command.sqlite and "error" not in record:
                kept[mode.name] = command.sqlite
    return records, kept
