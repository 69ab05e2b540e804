#!/usr/bin/env python3
"""The suite's own logic, without profilers or timing: output parsing, the interleaved order of
rounds, summaries, budget verdicts and report counts.
Run: python3 bench/tests/test_suite_logic.py"""
import os
import sqlite3
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from suite import budget  # noqa: E402
from suite.process import parse_values, run_measured  # noqa: E402
from suite.report_facts import report_facts  # noqa: E402
from suite.rounds import run_rounds  # noqa: E402
from suite.summary import summarize  # noqa: E402
from suite.workloads import Command, Mode, Workload  # noqa: E402


def echo_mode(name, text):
    return Mode(name, (), lambda tools, program, prefix: Command(["sh", "-c", f"echo '{text}'"]))


class ParsingTest(unittest.TestCase):
    def test_key_values_and_later_lines_win(self):
        values = parse_values("us_per_iter=9.5 iterations=20000 loop_s=0.19\npeak_rss_kb=10\n"
                              "peak_rss_kb=12 note=abc x=1e-3\n")
        self.assertEqual(values, {"us_per_iter": 9.5, "iterations": 20000.0, "loop_s": 0.19,
                                  "peak_rss_kb": 12.0, "x": 0.001})

    def test_measured_run_keeps_exit_code_and_clock(self):
        with tempfile.TemporaryDirectory() as work:
            outcome = run_measured(["sh", "-c", "echo a=1; exit 3"], {}, os.path.join(work, "out"))
        self.assertEqual(outcome.rc, 3)
        self.assertEqual(outcome.values, {"a": 1.0})
        self.assertGreater(outcome.end_ns, outcome.start_ns)


class RoundsTest(unittest.TestCase):
    def test_each_round_starts_with_the_next_mode(self):
        modes = (echo_mode("a", "v=1"), echo_mode("b", "v=2"), echo_mode("c", "v=3"))
        workload = Workload("fake", "fake", (), ("v",), None, modes)
        with tempfile.TemporaryDirectory() as work:
            records, _ = run_rounds(workload, modes, None, [], 3, work)
        order = "".join(record["mode"] for record in records)
        self.assertEqual(order, "abcbcacab")

    def test_summary_leaves_failed_runs_out(self):
        records = [{"mode": "p", "m": {"v": 1.0}}, {"mode": "p", "m": {"v": 5.0}},
                   {"mode": "p", "m": {"v": 3.0}}, {"mode": "p", "m": {"v": 99.0}, "error": "x"}]
        self.assertEqual(summarize(records)["p"]["v"], {"median": 3.0, "min": 1.0, "max": 5.0,
                                                        "n": 3})


def summary_of(medians):
    return {mode: {key: {"median": value, "min": value, "max": value, "n": 1}
                   for key, value in keys.items()} for mode, keys in medians.items()}


class BudgetTest(unittest.TestCase):
    def verdicts(self, workload, medians):
        return {line["budget"]: line["status"]
                for line in budget.judge({workload: summary_of(medians)})}

    def test_added_cost_ratios(self):
        verdicts = self.verdicts("launch_loop", {
            "plain": {"us_per_iter": 8.0}, "prof": {"us_per_iter": 8.5, "kernels": 10},
            "nsys": {"us_per_iter": 12.0, "kernels": 11}})
        self.assertEqual(verdicts["prof added / nsys added, us/iter"], "PASS")  # 0.5/4
        self.assertEqual(verdicts["prof added / no profiler, us/iter"], "PASS")  # 0.5/8
        self.assertEqual(verdicts["kernels: prof - nsys"], "MISS")
        self.assertEqual(verdicts["NVTX ranges: prof - nsys"], "n/a")
        self.assertEqual(verdicts[self.FLOOR_LINE], "n/a")  # no cupti_floor mode ran

    FLOOR_LINE = "(prof added - CUPTI floor added) / CUPTI floor added, us/iter"

    def test_cost_over_cuptis_floor(self):
        def floor_verdict(floor_us):
            return self.verdicts("launch_loop", {
                "plain": {"us_per_iter": 8.0}, "cupti_floor": {"us_per_iter": floor_us},
                "prof": {"us_per_iter": 8.5}})[self.FLOOR_LINE]
        self.assertEqual(floor_verdict(8.45), "PASS")  # 0.5 / 0.45 - 1 = 0.11
        self.assertEqual(floor_verdict(8.2), "MISS")  # 0.5 / 0.2 - 1 = 1.5

    def test_missing_mode_is_not_applicable(self):
        verdicts = self.verdicts("nvtx_cpu", {"plain": {"ns_per_pair": 2.0},
                                              "prof": {"ns_per_pair": 50.0}})
        self.assertEqual(verdicts["prof added / nsys added, ns/pair"], "n/a")
        self.assertEqual(verdicts["prof added ns per push/pop pair"], "info")

    def test_report_ready_and_stats_speed(self):
        verdicts = self.verdicts("nvtx_events", {
            "prof": {"report_ready_s": 0.6, "rows_per_s": 2e6, "report_bytes": 100},
            "nsys": {"import_export_s": 60.0, "sqlite_bytes": 120}})
        self.assertEqual(verdicts["prof report ready after exit, s"], "MISS")
        self.assertEqual(verdicts["prof report ready / nsys import+export"], "PASS")
        self.assertEqual(verdicts["prof rows/s, program start to report closed"], "PASS")
        self.assertEqual(verdicts["prof report / nsys SQLite export, bytes"], "PASS")
        stats = self.verdicts("prof_stats", {"prof_stats": {"wall_s": 1.0},
                                             "nsys_stats": {"wall_s": 4.0}})
        self.assertEqual(stats["nsys stats / prof stats, wall s (each on its own report)"], "MISS")


class ReportFactsTest(unittest.TestCase):
    def test_counts_present_tables_only(self):
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "r.sqlite")
            connection = sqlite3.connect(path)
            connection.executescript(
                "CREATE TABLE NVTX_EVENTS (eventType INTEGER);"
                "INSERT INTO NVTX_EVENTS VALUES (59), (59), (34);"
                "CREATE TABLE PROF_SESSION (name TEXT, value TEXT);"
                "INSERT INTO PROF_SESSION VALUES ('dropped_records', '7');")
            connection.commit()
            connection.close()
            self.assertEqual(report_facts(path), {"nvtx_ranges": 2, "dropped": 7})


if __name__ == "__main__":
    unittest.main()
